/* laby3d walk-through: the maze as the walker needs it, from the scene file (docs/scene-format.md).
 * Pure functions of the scene: no three.js, no page. Units mm; x along columns, z down the rows.
 * Adds LABY3D_WALK.mazeModel(scene) -> {centre, cellOf, index, neighbours, nextJunction, hits, chunkPieces}.
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
    function wayOut() {
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
    // "which way?": from (r, c) along the way out, the first cell with three or more open
    // sides (or the exit) and the direction (x, z) to leave it by
    function nextJunction(r, c) {
      var next = wayOut(), k = index(r, c);
      for (var guard = 0; guard < rows * cols && next[k] >= 0 && neighbours(k).length < 3; guard++) k = next[k];
      var cell = [Math.floor(k / cols), k % cols], p = centre(cell[0], cell[1]), direction = [0, -1];
      if (next[k] >= 0) {
        var q = centre(Math.floor(next[k] / cols), next[k] % cols);
        direction = [Math.sign(q[0] - p[0]), Math.sign(q[1] - p[1])];
      } else if (scene.exit && scene.exit.side) {
        direction = OUTWARD[scene.exit.side];
      }
      return { cell: cell, direction: direction };
    }

    // collision: wall runs and the doors (open to the eye, closed to the feet) by pitch square
    var solid = scene.walls.slice();
    [scene.entrance, scene.exit].forEach(function (o) { if (o && o.door) solid.push(o.door); });
    var gridCols = cols + 3, buckets = new Array((rows + 3) * gridCols);
    solid.forEach(function (q, k) {
      var a0 = Math.max(-1, Math.floor(q[1] / pitch) - 1), a1 = Math.min(rows + 1, Math.floor(q[3] / pitch) + 1);
      var b0 = Math.max(-1, Math.floor(q[0] / pitch) - 1), b1 = Math.min(cols + 1, Math.floor(q[2] / pitch) + 1);
      for (var a = a0; a <= a1; a++) {
        for (var b = b0; b <= b1; b++) {
          var key = (a + 1) * gridCols + b + 1;
          (buckets[key] = buckets[key] || []).push(k);
        }
      }
    });
    function hits(x, z, radius) {      // rectangles a square of half side radius at (x, z) overlaps
      var a = Math.floor(z / pitch), b = Math.floor(x / pitch);
      if (a < -1 || a > rows + 1 || b < -1 || b > cols + 1) return [];
      var list = buckets[(a + 1) * gridCols + b + 1] || [], found = [];
      for (var n = 0; n < list.length; n++) {
        var q = solid[list[n]];
        if (x + radius > q[0] && x - radius < q[2] && z + radius > q[1] && z - radius < q[3]) found.push(q);
      }
      return found;
    }

    // drawing: wall runs cut at the borders of square chunks (side mm); a piece remembers
    // whether its ends are the run's real ends (they get vertical edge lines)
    function chunkPieces(side) {
      var across = Math.ceil(scene.size[0] / side), down = Math.ceil(scene.size[1] / side), chunks = [];
      for (var n = 0; n < across * down; n++) chunks.push([]);
      scene.walls.forEach(function (q) {
        var alongX = q[2] - q[0] >= q[3] - q[1], lo = alongX ? q[0] : q[1], hi = alongX ? q[2] : q[3];
        for (var cut = lo; cut < hi - 1e-9;) {
          var next = Math.min(hi, (Math.floor(cut / side + 1e-9) + 1) * side);
          var box = alongX ? [cut, q[1], next, q[3]] : [q[0], cut, q[2], next];
          var a = Math.min(down - 1, Math.floor((box[1] + box[3]) / 2 / side));
          var b = Math.min(across - 1, Math.floor((box[0] + box[2]) / 2 / side));
          chunks[a * across + b].push({ box: box, openStart: cut === lo, openEnd: next === hi });
          cut = next;
        }
      });
      return { across: across, down: down, chunks: chunks };
    }

    return {
      rows: rows, cols: cols, index: index, centre: centre, cellOf: cellOf, neighbours: neighbours,
      nextJunction: nextJunction, hits: hits, chunkPieces: chunkPieces, outward: OUTWARD
    };
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.mazeModel = mazeModel;
})();
