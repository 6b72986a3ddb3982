/* laby3d walk-through: the cells of a maze of any shape, from the tables of its scene file
 * (docs/scene-format.md, version 4): which cell a point is in, the neighbours through open
 * walls, the next cell on the way out and where to cross into it, where the walker starts and
 * the solution's path. Pure functions of the scene: no three.js, no page, and no rule of any
 * shape (the scene gives every position). Units mm; points are (x, z).
 * Adds LABY3D_WALK.cellModel(scene) -> {count, index, position, centre, cellAt, wayOut, exitCell,
 * start, doorMiddle, trail}.
 */
(function () {
  "use strict";

  function cellModel(scene) {
    var points = scene.points, polygons = scene.cell_polygons, centres = scene.centres;
    var starts = scene.row_starts, count = polygons.length;

    function index(row, col) { return starts[row] + col; }
    function position(k) {              // [row, col] of cell k (rows by their first cell)
      var low = 0, high = starts.length - 2;
      while (low < high) {
        var middle = (low + high + 1) >> 1;
        if (starts[middle] <= k) low = middle; else high = middle - 1;
      }
      return [low, k - starts[low]];
    }
    function centre(k) { return centres[k]; }

    // ---------- which cell holds a point: its polygon, found through a grid of buckets ----------
    var x0 = Infinity, z0 = Infinity, x1 = -Infinity, z1 = -Infinity;
    points.forEach(function (p) {
      x0 = Math.min(x0, p[0]); z0 = Math.min(z0, p[1]); x1 = Math.max(x1, p[0]); z1 = Math.max(z1, p[1]);
    });
    var side = Math.max(x1 - x0, z1 - z0, 1e-9) / Math.max(1, Math.ceil(Math.sqrt(count)));   // ~1 cell a bucket
    var across = Math.floor((x1 - x0) / side) + 1, down = Math.floor((z1 - z0) / side) + 1;
    var buckets = new Array(across * down);
    function column(x) { return Math.max(0, Math.min(across - 1, Math.floor((x - x0) / side))); }
    function row(z) { return Math.max(0, Math.min(down - 1, Math.floor((z - z0) / side))); }
    polygons.forEach(function (polygon, k) {
      var a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
      polygon.forEach(function (id) {
        var p = points[id];
        a = Math.min(a, p[0]); b = Math.min(b, p[1]); c = Math.max(c, p[0]); d = Math.max(d, p[1]);
      });
      for (var r = row(b); r <= row(d); r++) {
        for (var q = column(a); q <= column(c); q++) (buckets[r * across + q] = buckets[r * across + q] || []).push(k);
      }
    });
    function inside(k, x, z) {          // even-odd rule: crossings of a ray towards +x
      var polygon = polygons[k], odd = false;
      for (var n = 0, m = polygon.length - 1; n < polygon.length; m = n++) {
        var p = points[polygon[n]], q = points[polygon[m]];
        if ((p[1] > z) !== (q[1] > z) && x < p[0] + (z - p[1]) * (q[0] - p[0]) / (q[1] - p[1])) odd = !odd;
      }
      return odd;
    }
    // the cell holding (x, z); `guess` (the walker's cell) is tried first; a point on no polygon
    // (on an edge, or outside) gets the cell of the nearest centre among its bucket's cells
    function cellAt(x, z, guess) {
      if (guess !== undefined && guess >= 0 && inside(guess, x, z)) return guess;
      var list = buckets[row(z) * across + column(x)] || [], best = -1, nearest = Infinity;
      for (var n = 0; n < list.length; n++) {
        if (inside(list[n], x, z)) return list[n];
        var c = centres[list[n]], distance = Math.hypot(c[0] - x, c[1] - z);
        if (distance < nearest) { nearest = distance; best = list[n]; }
      }
      return best >= 0 ? best : (guess !== undefined ? guess : 0);
    }

    // ---------- the cell graph through open walls ----------
    var links = [];                     // cell -> [[neighbour, passage index], ...]
    for (var k = 0; k < count; k++) links.push([]);
    scene.passages.forEach(function (pair, n) {
      links[pair[0]].push([pair[1], n]);
      links[pair[1]].push([pair[0], n]);
    });
    function between(a, b) {            // the passage index joining cells a and b (-1 if none)
      for (var n = 0; n < links[a].length; n++) if (links[a][n][0] === b) return links[a][n][1];
      return -1;
    }

    function doorMiddle(door) {         // the point halfway along a door's segments
      var total = 0;
      door.forEach(function (s) { total += Math.hypot(s[2] - s[0], s[3] - s[1]); });
      var left = total / 2;
      for (var n = 0; n < door.length; n++) {
        var s = door[n], length = Math.hypot(s[2] - s[0], s[3] - s[1]);
        if (left <= length || n === door.length - 1) {
          var f = length ? Math.min(1, left / length) : 0;
          return [s[0] + (s[2] - s[0]) * f, s[1] + (s[3] - s[1]) * f];
        }
        left -= length;
      }
      return null;
    }

    var exitCell = scene.exit ? index(scene.exit.row, scene.exit.col) : -1;
    var toward = null;                  // cell -> next cell on the way out (-1 at the exit)
    function nextCells() {
      if (toward) return toward;
      toward = new Int32Array(count).fill(-2);
      if (exitCell < 0) return toward;
      var queue = [exitCell];
      toward[exitCell] = -1;
      for (var q = 0; q < queue.length; q++) {
        links[queue[q]].forEach(function (link) {
          if (toward[link[0]] === -2) { toward[link[0]] = queue[q]; queue.push(link[0]); }
        });
      }
      return toward;
    }
    // "which way?": from cell k, the next cell on the way out (null in the exit cell) and the
    // point to make for: the middle of the open wall into it, or of the exit's door
    function wayOut(k) {
      var next = nextCells()[k];
      if (next >= 0) return { next: next, target: scene.passage_middles[between(k, next)] };
      var door = next === -1 && scene.exit && scene.exit.door;
      return { next: null, target: door ? doorMiddle(door) : null };
    }

    // where the walker starts: the entrance's cell centre, facing in from its door (or, with no
    // door, towards the first step of the solution)
    function start() {
      var e = scene.entrance, k = e ? index(e.row, e.col) : 0, p = centres[k], facing = [1, 0];
      var from = e && e.door ? doorMiddle(e.door) : null;
      if (from) facing = [p[0] - from[0], p[1] - from[1]];
      else if (scene.solution.length > 1) {
        var q = scene.passage_middles[between(k, index(scene.solution[1][0], scene.solution[1][1]))];
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
        path.push(centres[k]);
        if (n + 1 < cells.length) path.push(scene.passage_middles[between(k, cells[n + 1])]);
      });
      if (cells.length && scene.exit && scene.exit.door) path.push(doorMiddle(scene.exit.door));
      return path;
    }

    return {
      count: count, index: index, position: position, centre: centre, cellAt: cellAt, wayOut: wayOut,
      exitCell: exitCell, start: start, doorMiddle: doorMiddle, trail: trail
    };
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.cellModel = cellModel;
})();
