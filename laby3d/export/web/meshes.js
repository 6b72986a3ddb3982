/* laby3d walk-through: three.js geometry from walls given as segments in mm (needs THREE, classic build).
 * A wall is a centre segment [x0, z0, x1, z1] and a thickness: a box with flat ends, in any direction.
 * Adds LABY3D_WALK.meshes = {colourOf, palette, wallGeometry, boxGeometry, edgeGeometry, chunked, mapTexture}.
 */
(function () {
  "use strict";
  var FACE_NAMES = ["north", "east", "south", "west", "top"];

  // colours: THREE.Color and each release's default output show an sRGB hex as itself, in r14x
  // (no colour management) as in r152+ (linear working space, sRGB output); no lights are used
  function colourOf(hex, shade) {         // sRGB hex times a shade, in three's working space
    var c = new THREE.Color().setRGB((hex >> 16 & 255) / 255 * shade, (hex >> 8 & 255) / 255 * shade,
                                     (hex & 255) / 255 * shade, THREE.SRGBColorSpace);   // r14x: no 4th argument
    return [c.r, c.g, c.b];
  }
  // face name -> [colour at the foot, colour at the top]; colours: face name -> hex (or one hex)
  function palette(colours, footShade) {
    var result = {};
    FACE_NAMES.forEach(function (name) {
      var hex = typeof colours === "number" ? colours : colours[name];
      result[name] = [colourOf(hex, name === "top" ? 1 : footShade), colourOf(hex, 1)];
    });
    return result;
  }
  // the compass name of the direction (x, z) a side face looks (z runs south)
  function facing(x, z) {
    return Math.abs(x) >= Math.abs(z) ? (x > 0 ? "east" : "west") : (z > 0 ? "south" : "north");
  }
  // the four footprint corners (x, z) of wall [x0, z0, x1, z1, thickness], going round it
  function corners(w) {
    var length = Math.hypot(w[2] - w[0], w[3] - w[1]) || 1, h = w[4] / 2;
    var nx = -(w[3] - w[1]) / length * h, nz = (w[2] - w[0]) / length * h;
    return [[w[0] - nx, w[1] - nz], [w[2] - nx, w[3] - nz], [w[2] + nx, w[3] + nz], [w[0] + nx, w[1] + nz]];
  }
  // walls [x0, z0, x1, z1, thickness] (mm) from y = 0 to height: triangles with a colour per vertex
  function wallGeometry(walls, height, colours) {
    var position = new Float32Array(walls.length * 30 * 3), colour = new Float32Array(walls.length * 30 * 3), o = 0;
    function quad(points, outward, rgb) {   // points (x, y, z) round a face, turned to look outward
      var a = points[0], b = points[1], c = points[2];
      var ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2], vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
      var nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      if (nx * outward[0] + ny * outward[1] + nz * outward[2] < 0) points = [points[0], points[3], points[2], points[1]];
      [0, 1, 2, 0, 2, 3].forEach(function (n) {
        var p = points[n], shade = rgb[p[1] > 0 ? 1 : 0];
        for (var k = 0; k < 3; k++) { position[o + k] = p[k]; colour[o + k] = shade[k]; }
        o += 3;
      });
    }
    walls.forEach(function (w) {
      var c = corners(w), mx = (w[0] + w[2]) / 2, mz = (w[1] + w[3]) / 2;
      for (var n = 0; n < 4; n++) {
        var p = c[n], q = c[(n + 1) % 4], ox = (p[0] + q[0]) / 2 - mx, oz = (p[1] + q[1]) / 2 - mz;
        quad([[p[0], 0, p[1]], [q[0], 0, q[1]], [q[0], height, q[1]], [p[0], height, p[1]]], [ox, 0, oz],
             colours[facing(ox, oz)]);
      }
      quad(c.map(function (p) { return [p[0], height, p[1]]; }), [0, 1, 0], colours.top);
    });
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(position, 3));
    geometry.setAttribute("color", new THREE.BufferAttribute(colour, 3));
    return geometry;
  }
  // axis-aligned boxes [x0, z0, x1, z1] (mm) from y = 0 to height
  function boxGeometry(boxes, height, colours) {
    return wallGeometry(boxes.map(function (q) {
      return [q[0], (q[1] + q[3]) / 2, q[2], (q[1] + q[3]) / 2, q[3] - q[1]];
    }), height, colours);
  }
  // outlines of walls [x0, z0, x1, z1, thickness]: the footprint at the foot and the top, and
  // the four upright edges
  function edgeGeometry(walls, height) {
    var points = [];
    walls.forEach(function (w) {
      var c = corners(w);
      for (var n = 0; n < 4; n++) {
        var p = c[n], q = c[(n + 1) % 4];
        points.push(p[0], 0, p[1], q[0], 0, q[1], p[0], height, p[1], q[0], height, q[1]);
        points.push(p[0], 0, p[1], p[0], height, p[1]);
      }
    });
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(points), 3));
    return geometry;
  }
  // walls grouped by the square (side mm) holding their middle, with each group's extent
  // [x0, z0, x1, z1] (long walls make their group's extent larger, never get cut)
  function chunked(walls, side) {
    var groups = {};
    walls.forEach(function (w) {
      var key = Math.floor((w[1] + w[3]) / 2 / side) + "," + Math.floor((w[0] + w[2]) / 2 / side);
      var group = groups[key] = groups[key] || { walls: [], box: [Infinity, Infinity, -Infinity, -Infinity] };
      group.walls.push(w);
      corners(w).forEach(function (p) {
        group.box = [Math.min(group.box[0], p[0]), Math.min(group.box[1], p[1]),
                     Math.max(group.box[2], p[0]), Math.max(group.box[3], p[1])];
      });
    });
    return Object.keys(groups).map(function (key) { return groups[key]; });
  }
  // the maze as a picture, a pixel per post, wall and cell ((2 cols + 1) x (2 rows + 1)), mipmapped
  function mapTexture(scene, floorHex, wallHex) {
    var w = 2 * scene.cols + 1, h = 2 * scene.rows + 1, data = new Uint8Array(w * h * 4);
    function paint(i, j, hex) {           // lattice row i (0 = north), column j
      var o = ((h - 1 - i) * w + j) * 4;   // texture rows run from the south
      data[o] = hex >> 16 & 255; data[o + 1] = hex >> 8 & 255; data[o + 2] = hex & 255; data[o + 3] = 255;
    }
    for (var i = 0; i < h; i++) for (var j = 0; j < w; j++) paint(i, j, i % 2 && j % 2 ? floorHex : wallHex);
    for (var r = 0; r < scene.rows; r++) {
      for (var c = 0; c < scene.cols; c++) {
        var open = scene.cells[r][c];
        if (open & 2) paint(2 * r + 1, 2 * c + 2, floorHex);
        if (open & 4) paint(2 * r + 2, 2 * c + 1, floorHex);
        if (r === 0 && open & 1) paint(0, 2 * c + 1, floorHex);
        if (c === 0 && open & 8) paint(2 * r + 1, 0, floorHex);
      }
    }
    var texture = new THREE.DataTexture(data, w, h, THREE.RGBAFormat);
    texture.magFilter = THREE.NearestFilter;
    texture.minFilter = THREE.LinearMipmapLinearFilter;
    texture.generateMipmaps = true;
    if ("colorSpace" in texture) texture.colorSpace = THREE.SRGBColorSpace;   // r152+: the bytes are sRGB
    texture.needsUpdate = true;
    return texture;
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.meshes = {
    colourOf: colourOf, palette: palette, wallGeometry: wallGeometry, boxGeometry: boxGeometry,
    edgeGeometry: edgeGeometry, chunked: chunked, mapTexture: mapTexture
  };
})();
