/* laby3d walk-through: walls as segments with a thickness, and a walker (a circle) that slides
 * along them. Pure functions: no three.js, no page, no grid. Units mm; points are (x, z).
 *
 * A wall is a centre segment x0, z0, x1, z1 widened by half the thickness on each side, with
 * flat (butt) ends: an oriented rectangle in any direction, so mazes whose walls are not on a
 * square grid use the same code. A move is swept: the walker stops at the NEAREST wall its
 * circle would touch along the way (however far the move, however thin the wall), then slides
 * along that wall with what is left of the move.
 * Adds LABY3D_WALK.wallSet(segments, thickness, bucket) -> {move(x, z, dx, dz, radius) -> [x, z],
 * clearance(x, z) -> mm from (x, z) to the nearest wall}; segments: one flat list x0, z0, x1,
 * z1, x0, ... (the scene's); bucket: side of the search grid, mm.
 */
(function () {
  "use strict";
  var SKIN = 1e-7;                        // mm kept between the walker and a wall it stops at
  var SLIDES = 4;                         // walls met in one move (a corner takes two)

  function wallSet(segments, thickness, bucket) {
    var count = segments.length >> 2, half = thickness / 2, k;
    // each wall in its own frame: centre, unit direction along it, half length
    var cx = new Float64Array(count), cz = new Float64Array(count), ux = new Float64Array(count),
        uz = new Float64Array(count), halfLength = new Float64Array(count);
    var x0 = Infinity, z0 = Infinity, x1 = -Infinity, z1 = -Infinity;
    for (k = 0; k < count; k++) {
      var a0 = segments[4 * k], b0 = segments[4 * k + 1], a1 = segments[4 * k + 2], b1 = segments[4 * k + 3];
      var length = Math.hypot(a1 - a0, b1 - b0);
      cx[k] = (a0 + a1) / 2; cz[k] = (b0 + b1) / 2;
      ux[k] = length ? (a1 - a0) / length : 1; uz[k] = length ? (b1 - b0) / length : 0;
      halfLength[k] = length / 2;
      x0 = Math.min(x0, a0, a1); z0 = Math.min(z0, b0, b1);
      x1 = Math.max(x1, a0, a1); z1 = Math.max(z1, b0, b1);
    }
    if (!count) { x0 = z0 = 0; x1 = z1 = bucket; }
    // search grid: the walls whose bounding box touches each square of side bucket, all in one
    // array (each square's walls counted first, then placed)
    var left = x0 - half - bucket, top = z0 - half - bucket;
    var across = Math.ceil((x1 - x0 + thickness) / bucket) + 3, down = Math.ceil((z1 - z0 + thickness) / bucket) + 3;
    function column(x) { return Math.max(0, Math.min(across - 1, Math.floor((x - left) / bucket))); }
    function row(z) { return Math.max(0, Math.min(down - 1, Math.floor((z - top) / bucket))); }
    var box = new Int32Array(4 * count), filled = new Int32Array(across * down + 1);
    for (k = 0; k < count; k++) {
      var hx = Math.abs(ux[k]) * halfLength[k] + half, hz = Math.abs(uz[k]) * halfLength[k] + half;
      box[4 * k] = column(cx[k] - hx); box[4 * k + 1] = row(cz[k] - hz);
      box[4 * k + 2] = column(cx[k] + hx); box[4 * k + 3] = row(cz[k] + hz);
      for (var a = box[4 * k + 1]; a <= box[4 * k + 3]; a++) {
        for (var b = box[4 * k]; b <= box[4 * k + 2]; b++) filled[a * across + b + 1] += 1;
      }
    }
    for (k = 1; k < filled.length; k++) filled[k] += filled[k - 1];
    var walls = new Int32Array(filled[filled.length - 1]), place = filled.slice(0, -1);
    for (k = 0; k < count; k++) {
      for (var a2 = box[4 * k + 1]; a2 <= box[4 * k + 3]; a2++) {
        for (var b2 = box[4 * k]; b2 <= box[4 * k + 2]; b2++) walls[place[a2 * across + b2]++] = k;
      }
    }
    var seen = new Int32Array(count), visit = 0;
    function near(xa, za, xb, zb) {      // walls whose buckets meet the box [xa, xb] x [za, zb]
      var found = [];
      visit += 1;
      for (var a = row(za); a <= row(zb); a++) {
        for (var b = column(xa); b <= column(xb); b++) {
          for (var n = filled[a * across + b]; n < filled[a * across + b + 1]; n++) {
            if (seen[walls[n]] !== visit) { seen[walls[n]] = visit; found.push(walls[n]); }
          }
        }
      }
      return found;
    }

    // signed distance from (a, b) (wall frame: a along, b across) to wall k's rectangle, and the
    // outward normal there (wall frame)
    function distance(k, a, b) {
      var qa = Math.abs(a) - halfLength[k], qb = Math.abs(b) - half;
      var oa = Math.max(qa, 0), ob = Math.max(qb, 0), out = Math.hypot(oa, ob);
      if (out > 0) return [out, Math.sign(a) * oa / out, Math.sign(b) * ob / out];
      return qa > qb ? [qa, Math.sign(a) || 1, 0] : [qb, 0, Math.sign(b) || 1];
    }
    // when (fraction 0..1 of the move) a circle of radius r at (px, pz) moving by (dx, dz) first
    // touches wall k, and the wall's outward normal there (x, z); null if it does not
    function contact(k, px, pz, dx, dz, r) {
      var rx = px - cx[k], rz = pz - cz[k], u = ux[k], v = uz[k];
      var a = rx * u + rz * v, b = rz * u - rx * v, da = dx * u + dz * v, db = dz * u - dx * v;
      var ha = halfLength[k], hb = half, na, nb, t;
      var here = distance(k, a, b);
      if (here[0] < r + SKIN) {          // touching already: only a move into the wall is stopped
        if (da * here[1] + db * here[2] >= -1e-12 * Math.hypot(da, db)) return null;
        t = 0; na = here[1]; nb = here[2];
      } else {
        // the rectangle grown by r (rounded corners): slabs first, then the corner's circle
        var enter = 0, leave = 1, axis = -1, slabs = [[a, da, ha + r], [b, db, hb + r]];
        for (var n = 0; n < 2; n++) {
          var p = slabs[n][0], d = slabs[n][1], e = slabs[n][2];
          if (Math.abs(d) < 1e-300) { if (Math.abs(p) > e) return null; continue; }
          var ta = (-e - p) / d, tb = (e - p) / d;
          if (ta > tb) { var swap = ta; ta = tb; tb = swap; }
          if (ta > enter) { enter = ta; axis = n; }
          leave = Math.min(leave, tb);
          if (enter > leave) return null;
        }
        var ea = a + da * enter, eb = b + db * enter;
        if (Math.abs(ea) > ha && Math.abs(eb) > hb) {      // a corner: the circle round it
          var fa = a - Math.sign(ea) * ha, fb = b - Math.sign(eb) * hb;
          var A = da * da + db * db, B = fa * da + fb * db, C = fa * fa + fb * fb - r * r;
          var disc = B * B - A * C;
          if (disc < 0 || A === 0) return null;
          t = (-B - Math.sqrt(disc)) / A;
          if (t < 0 || t > 1) return null;
          na = (fa + da * t) / r; nb = (fb + db * t) / r;
        } else {
          if (axis < 0) return null;
          t = enter;
          na = axis === 0 ? -Math.sign(da) : 0; nb = axis === 1 ? -Math.sign(db) : 0;
        }
      }
      return [t, na * u - nb * v, na * v + nb * u];
    }

    // the walker at (x, z) moved by (dx, dz): stops at the nearest wall, slides along it
    function move(x, z, dx, dz, radius) {
      var reach = radius + Math.hypot(dx, dz) + SKIN + half;
      var list = near(x - reach, z - reach, x + reach, z + reach);
      for (var slide = 0; slide < SLIDES && (dx || dz); slide++) {
        var best = null;
        for (var n = 0; n < list.length; n++) {
          var hit = contact(list[n], x, z, dx, dz, radius);
          if (hit && (!best || hit[0] < best[0])) best = hit;
        }
        if (!best) return [x + dx, z + dz];
        var length = Math.hypot(dx, dz), t = Math.max(0, best[0] - SKIN / length);
        x += dx * t; z += dz * t;
        dx *= 1 - t; dz *= 1 - t;
        var into = dx * best[1] + dz * best[2];   // what is left, less its part into the wall
        if (into < 0) { dx -= into * best[1]; dz -= into * best[2]; }
      }
      return [x, z];
    }
    function clearance(x, z) {
      var list = near(x - bucket, z - bucket, x + bucket, z + bucket), nearest = Infinity;
      for (var n = 0; n < list.length; n++) {
        var k = list[n], rx = x - cx[k], rz = z - cz[k];
        nearest = Math.min(nearest, distance(k, rx * ux[k] + rz * uz[k], rz * ux[k] - rx * uz[k])[0]);
      }
      return nearest;
    }
    return { move: move, clearance: clearance };
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.wallSet = wallSet;
})();
