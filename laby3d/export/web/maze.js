/* laby3d walk-through: the maze's cells as the walker needs them, from the scene file
 * (docs/scene-format.md). Pure functions of the scene: no three.js, no page. Units mm; x along
 * columns, z down the rows. The walls themselves are segments (walls.js); only the cells are a grid.
 * Adds LABY3D_WALK.mazeModel(scene) -> {centre, cellOf, index, neighbours, wayOut, outward}.
 */
(function () {
  "use strict";
  var N = 1, E = 2, S = 4, W = 8;
  var SIDES = [[N, -1, 0], [E, 0, 1], [S, 1, 0], [W, 0, -1]];   // bit, row step, column step
  var OUTWARD = { N: [0, -1], S: [0, 1], W: [-1, 0], E: [1, 0] };  // (x, z) out of the maze

  function mazeModel(scene) {
    var rows = scene.rows, cols = scene.cols, pitch = scene.cell_size, thick = scene.wall_thickness;

    function index(r, c) { return r * cols + c; }
    function centre(r, c) { return [thick / 2 + (c + 0.5) * pitch, thick / 2 + (r + 0.5) * pitch]; }
    function cellOf(x, z) {            // the cell (row, col) whose pitch square holds (x, z), clamped
      return [Math.min(rows - 1, Math.max(0, Math.floor((z - thick / 2) / pitch))),
              Math.min(cols - 1, Math.max(0, Math.floor((x - thick / 2) / pitch)))];
    }
    function neighbours(k) {           // cell indices one open side away
      var r = Math.floor(k / cols), c = k % cols, list = [];
      SIDES.forEach(function (side) {
        var r2 = r + side[1], c2 = c + side[2];
        if ((scene.cells[r][c] & side[0]) && r2 >= 0 && r2 < rows && c2 >= 0 && c2 < cols) list.push(index(r2, c2));
      });
      return list;
    }

    var towardExit = null;             // cell index -> next cell index on the way out (-1 at the exit)
    function nextCells() {
      if (towardExit) return towardExit;
      towardExit = new Int32Array(rows * cols).fill(-2);
      var goal = scene.exit ? index(scene.exit.row, scene.exit.col) : index(rows - 1, cols - 1);
      var queue = [goal];
      towardExit[goal] = -1;
      for (var q = 0; q < queue.length; q++) {
        neighbours(queue[q]).forEach(function (k) {
          if (towardExit[k] === -2) { towardExit[k] = queue[q]; queue.push(k); }
        });
      }
      return towardExit;
    }
    // "which way?": from cell (r, c), the next cell on the way out (null in the exit cell) and
    // the direction (x, z) to go there, or out through the exit's door
    function wayOut(r, c) {
      var k = nextCells()[index(r, c)], here = centre(r, c);
      if (k < 0) {
        var side = scene.exit && scene.exit.side;
        return { next: null, direction: side ? OUTWARD[side] : [0, 0] };
      }
      var there = centre(Math.floor(k / cols), k % cols);
      return { next: [Math.floor(k / cols), k % cols],
               direction: [Math.sign(there[0] - here[0]), Math.sign(there[1] - here[1])] };
    }

    return {
      rows: rows, cols: cols, index: index, centre: centre, cellOf: cellOf, neighbours: neighbours,
      wayOut: wayOut, outward: OUTWARD
    };
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.mazeModel = mazeModel;
})();
