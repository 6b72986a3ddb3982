/* laby3d walk-through: the cells of a maze of any shape, from the tables of its scene file
 * (docs/scene-format.md, version 5): which cell a point is in, the neighbours through open
 * walls, the way out (next cell, where to cross into it, how many cells away), where the walker
 * starts and the solution's path. Pure functions of the scene: no three.js, no page, and no
 * rule of any shape (the scene gives every position). Units mm; points are (x, z); the scene's
 * tables are flat (x0, z0, x1, z1, ...; the passages' cells two by two; each cell's polygon
 * from polygon_starts[k] to polygon_starts[k + 1] of cell_polygons); a board cut to an outline
 * names the board cell of each cell (cells), whose row and column row_starts give.
 * Adds LABY3D_WALK.cellModel(scene) -> {count, index, position, centre, cellAt, links, wayOut,
 * stepsOut, exitCell, start, doorMiddle, trail}.
 */
(function () {
  "use strict";

  function cellModel(scene) {
    var points = scene.points, corners = scene.cell_polygons, first = scene.polygon_starts, centres = scene.centres;
    var starts = scene.row_starts, count = first.length - 1;
    var board = scene.cells || null;     // a board cut to an outline: the board cell of each cell

    function last(list, value) {         // the last n with list[n] <= value (list increasing)
      var low = 0, high = list.length - 1;
      while (low < high) {
        var middle = (low + high + 1) >> 1;
        if (list[middle] <= value) low = middle; else high = middle - 1;
      }
      return low;
    }
    function index(row, col) {          // the cell (row, col) of the board (-1: cut away)
      var b = starts[row] + col;
      if (!board) return b;
      var k = last(board, b);
      return board[k] === b ? k : -1;
    }
    function position(k) {              // [row, col] of cell k (rows by their first board cell)
      var b = board ? board[k] : k, row = last(starts, b);
      return [row, b - starts[row]];
    }
    function centre(k) { return [centres[2 * k], centres[2 * k + 1]]; }

    // ---------- the cell graph through open walls: each cell's neighbours and passages ----------
    var passages = scene.passages, linkStarts = new Int32Array(count + 1), n, k;
    for (n = 0; n < passages.length; n++) linkStarts[passages[n] + 1] += 1;
    for (k = 0; k < count; k++) linkStarts[k + 1] += linkStarts[k];
    var linkCells = new Int32Array(linkStarts[count]), linkPassages = new Int32Array(linkStarts[count]);
    var filling = linkStarts.slice(0, count);
    for (n = 0; n < passages.length; n += 2) {
      var a = passages[n], b = passages[n + 1];
      linkCells[filling[a]] = b; linkPassages[filling[a]++] = n / 2;
      linkCells[filling[b]] = a; linkPassages[filling[b]++] = n / 2;
    }
    function between(a, b) {            // the passage index joining cells a and b (-1 if none)
      for (var n = linkStarts[a]; n < linkStarts[a + 1]; n++) if (linkCells[n] === b) return linkPassages[n];
      return -1;
    }

    // ---------- which cell holds a point: its polygon ----------
    function inside(k, x, z) {          // even-odd rule: crossings of a ray towards +x
      var odd = false;
      for (var n = first[k], m = first[k + 1] - 1; n < first[k + 1]; m = n++) {
        var px = points[2 * corners[n]], pz = points[2 * corners[n] + 1];
        var qx = points[2 * corners[m]], qz = points[2 * corners[m] + 1];
        if ((pz > z) !== (qz > z) && x < px + (z - pz) * (qx - px) / (qz - pz)) odd = !odd;
      }
      return odd;
    }
    // a grid of buckets, each with the cells whose box meets it (counted, then placed in one
    // array), built the first time a point is not in the walker's cell nor the next ones
    var grid = null;
    function buckets() {
      if (grid) return grid;
      var x0 = Infinity, z0 = Infinity, x1 = -Infinity, z1 = -Infinity, n, k;
      for (n = 0; n < points.length; n += 2) {
        x0 = Math.min(x0, points[n]); x1 = Math.max(x1, points[n]);
        z0 = Math.min(z0, points[n + 1]); z1 = Math.max(z1, points[n + 1]);
      }
      var side = Math.max(x1 - x0, z1 - z0, 1e-9) / Math.max(1, Math.ceil(Math.sqrt(count)));   // ~1 cell a bucket
      var across = Math.floor((x1 - x0) / side) + 1, down = Math.floor((z1 - z0) / side) + 1;
      var column = function (x) { return Math.max(0, Math.min(across - 1, Math.floor((x - x0) / side))); };
      var row = function (z) { return Math.max(0, Math.min(down - 1, Math.floor((z - z0) / side))); };
      var boxes = new Int32Array(4 * count), filled = new Int32Array(across * down + 1);
      for (k = 0; k < count; k++) {
        var a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
        for (n = first[k]; n < first[k + 1]; n++) {
          var id = 2 * corners[n];
          a = Math.min(a, points[id]); c = Math.max(c, points[id]);
          b = Math.min(b, points[id + 1]); d = Math.max(d, points[id + 1]);
        }
        boxes[4 * k] = column(a); boxes[4 * k + 1] = row(b); boxes[4 * k + 2] = column(c); boxes[4 * k + 3] = row(d);
        for (var r = boxes[4 * k + 1]; r <= boxes[4 * k + 3]; r++) {
          for (var q = boxes[4 * k]; q <= boxes[4 * k + 2]; q++) filled[r * across + q + 1] += 1;
        }
      }
      for (n = 1; n < filled.length; n++) filled[n] += filled[n - 1];
      var cells = new Int32Array(filled[filled.length - 1]), next = filled.slice(0, -1);
      for (k = 0; k < count; k++) {
        for (var r2 = boxes[4 * k + 1]; r2 <= boxes[4 * k + 3]; r2++) {
          for (var q2 = boxes[4 * k]; q2 <= boxes[4 * k + 2]; q2++) cells[next[r2 * across + q2]++] = k;
        }
      }
      grid = { bucket: function (x, z) { return row(z) * across + column(x); }, filled: filled, cells: cells };
      return grid;
    }
    // the cell holding (x, z): `guess` (the walker's cell) and the cells it opens into first; a
    // point on no polygon (on an edge, or outside) gets the cell of the nearest centre among
    // its bucket's cells
    function cellAt(x, z, guess) {
      if (guess !== undefined && guess >= 0) {
        if (inside(guess, x, z)) return guess;
        for (var m = linkStarts[guess]; m < linkStarts[guess + 1]; m++) if (inside(linkCells[m], x, z)) return linkCells[m];
      }
      var found = buckets(), bucket = found.bucket(x, z), best = -1, nearest = Infinity;
      for (var n = found.filled[bucket]; n < found.filled[bucket + 1]; n++) {
        var k = found.cells[n];
        if (inside(k, x, z)) return k;
        var distance = Math.hypot(centres[2 * k] - x, centres[2 * k + 1] - z);
        if (distance < nearest) { nearest = distance; best = k; }
      }
      return best >= 0 ? best : (guess !== undefined ? guess : 0);
    }

    function middle(passage) { return [scene.passage_middles[2 * passage], scene.passage_middles[2 * passage + 1]]; }

    function doorMiddle(door) {         // the point halfway along a door's segments (flat x0, z0, x1, z1, ...)
      var total = 0, n;
      for (n = 0; n < door.length; n += 4) total += Math.hypot(door[n + 2] - door[n], door[n + 3] - door[n + 1]);
      var left = total / 2;
      for (n = 0; n < door.length; n += 4) {
        var length = Math.hypot(door[n + 2] - door[n], door[n + 3] - door[n + 1]);
        if (left <= length || n + 4 >= door.length) {
          var f = length ? Math.min(1, left / length) : 0;
          return [door[n] + (door[n + 2] - door[n]) * f, door[n + 1] + (door[n + 3] - door[n + 1]) * f];
        }
        left -= length;
      }
      return null;
    }

    var exitCell = scene.exit ? index(scene.exit.row, scene.exit.col) : -1;
    var toward = null, away = null;     // cell -> next cell on the way out (-1 at the exit), cells to go
    function search() {
      if (toward) return;
      toward = new Int32Array(count).fill(-2);
      away = new Int32Array(count).fill(-1);
      if (exitCell < 0) return;
      var queue = [exitCell];
      toward[exitCell] = -1; away[exitCell] = 0;
      for (var q = 0; q < queue.length; q++) {
        for (var n = linkStarts[queue[q]]; n < linkStarts[queue[q] + 1]; n++) {
          var next = linkCells[n];
          if (toward[next] === -2) { toward[next] = queue[q]; away[next] = away[queue[q]] + 1; queue.push(next); }
        }
      }
    }
    // "which way?": from cell k, the next cell on the way out (null in the exit cell) and the
    // point to make for: the middle of the open wall into it, or of the exit's door
    function wayOut(k) {
      search();
      var next = toward[k];
      if (next >= 0) return { next: next, target: middle(between(k, next)) };
      var door = next === -1 && scene.exit && scene.exit.door;
      return { next: null, target: door ? doorMiddle(door) : null };
    }
    function stepsOut(k) { search(); return away[k]; }   // cells to enter from k to the exit (-1: none)

    // where the walker starts: the entrance's cell centre, facing in from its door (or, with no
    // door, towards the first step of the solution)
    function start() {
      var e = scene.entrance, k = e ? index(e.row, e.col) : 0, p = centre(k), facing = [1, 0];
      var from = e && e.door ? doorMiddle(e.door) : null;
      if (from) facing = [p[0] - from[0], p[1] - from[1]];
      else if (scene.solution.length > 1) {
        var q = middle(between(k, index(scene.solution[1][0], scene.solution[1][1])));
        facing = [q[0] - p[0], q[1] - p[1]];
      }
      return { cell: k, x: p[0], z: p[1], facing: facing };
    }

    // the solution as a path on the floor: the entrance's door, then each cell's centre and the
    // middle of the wall crossed to the next, to the exit's door
    function trail() {
      var path = [], cells = scene.solution.map(function (c) { return index(c[0], c[1]); });
      if (scene.entrance && scene.entrance.door) path.push(doorMiddle(scene.entrance.door));
      cells.forEach(function (k, n) {
        path.push(centre(k));
        if (n + 1 < cells.length) path.push(middle(between(k, cells[n + 1])));
      });
      if (cells.length && scene.exit && scene.exit.door) path.push(doorMiddle(scene.exit.door));
      return path;
    }

    return {
      count: count, index: index, position: position, centre: centre, cellAt: cellAt,
      links: function (k) {              // [{cell, middle}] of the cells k opens into
        var list = [];
        for (var n = linkStarts[k]; n < linkStarts[k + 1]; n++) list.push({ cell: linkCells[n], middle: middle(linkPassages[n]) });
        return list;
      },
      wayOut: wayOut, stepsOut: stepsOut, exitCell: exitCell, start: start, doorMiddle: doorMiddle, trail: trail
    };
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.cellModel = cellModel;
})();
