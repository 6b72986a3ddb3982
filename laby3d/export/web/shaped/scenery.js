/* laby3d walk-through: what is drawn besides the walls, for a maze of any shape, from the scene
 * file's tables (needs THREE, classic build, and LABY3D_WALK.meshes): the floor (the outline),
 * arches on doors made of segments in any direction, floor signs, the solution's ribbon and
 * the map's picture. Units mm; points (x, z); y up.
 * Adds LABY3D_WALK.scenery = {floorGeometry, along, archPieces, signWall, ribbon, mapTexture}.
 */
(function () {
  "use strict";

  // the outline (point ids, closed) as triangles on y = 0, seen from above
  function floorGeometry(points, outline) {
    var contour = outline.map(function (id) { return new THREE.Vector2(points[id][0], points[id][1]); });
    var triangles = THREE.ShapeUtils.triangulateShape(contour, []), position = [];
    triangles.forEach(function (t) {
      var a = contour[t[0]], b = contour[t[1]], c = contour[t[2]];
      // counter-clockwise seen from +y, whatever the outline's turning
      if ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) > 0) { var swap = b; b = c; c = swap; }
      position.push(a.x, 0, a.y, b.x, 0, b.y, c.x, 0, c.y);
    });
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(position), 3));
    return geometry;
  }

  // the part of a path of segments [x0, z0, x1, z1] between lengths `from` and `to` along it
  // (mm; before 0 and past its end it goes on straight), as segments
  function along(path, from, to) {
    var result = [], travelled = 0;
    path.forEach(function (s, n) {
      var length = Math.hypot(s[2] - s[0], s[3] - s[1]) || 1e-9;
      var a = n === 0 ? from : Math.max(from, travelled), b = n === path.length - 1 ? to : Math.min(to, travelled + length);
      if (b > a) {
        var ux = (s[2] - s[0]) / length, uz = (s[3] - s[1]) / length, o = a - travelled, e = b - travelled;
        result.push([s[0] + ux * o, s[1] + uz * o, s[0] + ux * e, s[1] + uz * e]);
      }
      travelled += length;
    });
    return result;
  }
  function lengthOf(path) {
    return path.reduce(function (sum, s) { return sum + Math.hypot(s[2] - s[0], s[3] - s[1]); }, 0);
  }

  // an arch over a door (centre segments): two posts just past its ends, `tiers` lintels above,
  // each narrower than the one below (one: flat-topped; more: a stepped gable). Walls
  // [x0, z0, x1, z1, thickness] with the height they rise to and where they start.
  function archPieces(door, thickness, height, lintel, tiers) {
    var length = lengthOf(door), pieces = [];
    along(door, -thickness, 0).concat(along(door, length, length + thickness)).forEach(function (s) {
      pieces.push({ wall: s.concat([thickness]), bottom: 0, top: height + lintel });
    });
    for (var k = 0; k < tiers; k++) {
      var shrink = k * (length + 2 * thickness) / (2 * tiers + 1);
      along(door, -thickness + shrink, length + thickness - shrink).forEach(function (s) {
        pieces.push({ wall: s.concat([thickness]), bottom: height + k * lintel, top: height + (k + 1) * lintel });
      });
    }
    return pieces;
  }

  // a square floor sign of half side `half` at (x, z), its sides along `direction` (x, z), or
  // turned by 45 degrees (a diamond): as a wall [x0, z0, x1, z1, thickness]
  function signWall(x, z, half, direction, diamond) {
    var angle = Math.atan2(direction[1], direction[0]) + (diamond ? Math.PI / 4 : 0);
    var ux = Math.cos(angle) * half, uz = Math.sin(angle) * half;
    return [x - ux, z - uz, x + ux, z + uz, 2 * half];
  }

  // a ribbon `width` wide along a path of points: a wall per stretch, a square at each bend
  function ribbon(path, width) {
    var walls = [];
    for (var n = 0; n < path.length; n++) {
      var p = path[n], q = path[n + 1];
      if (q && (q[0] !== p[0] || q[1] !== p[1])) walls.push([p[0], p[1], q[0], q[1], width]);
      walls.push([p[0] - width / 2, p[1], p[0] + width / 2, p[1], width]);
    }
    return walls;
  }

  // the maze seen from above as one picture (the map zoomed far out): the floor inside the
  // outline, the walls, the ground around; about `pixelsPerMm` (at most 2048 pixels a side)
  function mapTexture(scene, walls, colours, pixelsPerMm) {
    var width = scene.size[0], depth = scene.size[1];
    var scale = Math.min(pixelsPerMm, 2048 / Math.max(width, depth));
    var canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.ceil(width * scale)); canvas.height = Math.max(1, Math.ceil(depth * scale));
    var pen = canvas.getContext("2d");
    function hex(colour) { return "#" + ("00000" + colour.toString(16)).slice(-6); }
    pen.fillStyle = hex(colours.ground);
    pen.fillRect(0, 0, canvas.width, canvas.height);
    pen.setTransform(canvas.width / width, 0, 0, canvas.height / depth, 0, 0);
    pen.beginPath();
    scene.outline.forEach(function (id, n) {
      var p = scene.points[id];
      if (n) pen.lineTo(p[0], p[1]); else pen.moveTo(p[0], p[1]);
    });
    pen.closePath();
    pen.fillStyle = hex(colours.floor);
    pen.fill();
    pen.strokeStyle = hex(colours.top);
    pen.lineCap = "butt";
    pen.lineWidth = Math.max(scene.wall_thickness, 1 / scale);   // at least a pixel
    pen.beginPath();
    walls.forEach(function (w) { pen.moveTo(w[0], w[1]); pen.lineTo(w[2], w[3]); });
    pen.stroke();
    var texture = new THREE.CanvasTexture(canvas);
    texture.magFilter = THREE.NearestFilter;
    texture.minFilter = THREE.LinearMipmapLinearFilter;
    if ("colorSpace" in texture) texture.colorSpace = THREE.SRGBColorSpace;   // r152+: the pixels are sRGB
    return texture;
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.scenery = {
    floorGeometry: floorGeometry, along: along, archPieces: archPieces, signWall: signWall, ribbon: ribbon,
    mapTexture: mapTexture
  };
})();
