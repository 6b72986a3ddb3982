/* laby3d walk-through: three.js geometry from rectangles in mm (needs THREE, classic build).
 * Adds LABY3D_WALK.meshes = {colourOf, palette, boxGeometry, edgeGeometry, arrowShape, mapTexture}.
 */
(function () {
  "use strict";
  // a box's corners (unit cube) and faces without the bottom: corner indices, direction the face looks
  var CORNERS = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
  var FACES = [[[0, 3, 2, 1], "north"], [[4, 5, 6, 7], "south"], [[3, 7, 6, 2], "top"], [[1, 2, 6, 5], "east"],
               [[0, 4, 7, 3], "west"]];

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
    FACES.forEach(function (face) {
      var hex = typeof colours === "number" ? colours : colours[face[1]];
      result[face[1]] = [colourOf(hex, face[1] === "top" ? 1 : footShade), colourOf(hex, 1)];
    });
    return result;
  }
  // boxes [x0, z0, x1, z1] (mm) from y = 0 to height: triangles with a colour per vertex
  function boxGeometry(boxes, height, colours) {
    var position = new Float32Array(boxes.length * 30 * 3), colour = new Float32Array(boxes.length * 30 * 3), o = 0;
    boxes.forEach(function (q) {
      var size = [q[2] - q[0], height, q[3] - q[1]], origin = [q[0], 0, q[1]];
      FACES.forEach(function (face) {
        var quad = face[0], rgb = colours[face[1]];
        [quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]].forEach(function (v) {
          var shade = rgb[CORNERS[v][1]];
          for (var a = 0; a < 3; a++) {
            position[o + a] = origin[a] + CORNERS[v][a] * size[a];
            colour[o + a] = shade[a];
          }
          o += 3;
        });
      });
    });
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(position, 3));
    geometry.setAttribute("color", new THREE.BufferAttribute(colour, 3));
    return geometry;
  }
  // outlines of wall pieces ({box, openStart, openEnd}): top and foot edges, and vertical edges
  // at the run's real ends only (not where a chunk border cut it)
  function edgeGeometry(pieces, height) {
    var points = [];
    function segment(a, b) { points.push(a[0], a[1], a[2], b[0], b[1], b[2]); }
    pieces.forEach(function (p) {
      var q = p.box, x0 = q[0], z0 = q[1], x1 = q[2], z1 = q[3], alongX = x1 - x0 >= z1 - z0;
      [height, 0].forEach(function (y) {
        segment([x0, y, z0], [x1, y, z0]); segment([x1, y, z0], [x1, y, z1]);
        segment([x1, y, z1], [x0, y, z1]); segment([x0, y, z1], [x0, y, z0]);
      });
      var ends = alongX ? [[p.openStart, [[x0, z0], [x0, z1]]], [p.openEnd, [[x1, z0], [x1, z1]]]]
                        : [[p.openStart, [[x0, z0], [x1, z0]]], [p.openEnd, [[x0, z1], [x1, z1]]]];
      ends.forEach(function (end) {
        if (end[0]) end[1].forEach(function (xz) { segment([xz[0], 0, xz[1]], [xz[0], height, xz[1]]); });
      });
    });
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(points), 3));
    return geometry;
  }
  // a flat arrow length mm long in the xy plane, pointing to -y
  function arrowShape(length) {
    var shape = new THREE.Shape(), w = 0.18 * length;
    shape.moveTo(-w, 0.5 * length); shape.lineTo(w, 0.5 * length); shape.lineTo(w, -0.05 * length);
    shape.lineTo(2.2 * w, -0.05 * length); shape.lineTo(0, -0.5 * length); shape.lineTo(-2.2 * w, -0.05 * length);
    shape.lineTo(-w, -0.05 * length); shape.lineTo(-w, 0.5 * length);
    return shape;
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
    colourOf: colourOf, palette: palette, boxGeometry: boxGeometry, edgeGeometry: edgeGeometry,
    arrowShape: arrowShape, mapTexture: mapTexture
  };
})();
