/* laby3d walk-through: three.js geometry from the scene's tables, in mm (needs THREE, classic
 * build): walls (a centre segment [x0, z0, x1, z1] and a thickness: a box with flat ends, in any
 * direction), the floor (inside the outline), arches on doors, floor signs, the solution's ribbon and
 * the map's picture. Points (x, z); y up.
 * Adds LABY3D_WALK.meshes = {colourOf, palette, wallGeometry, edgeGeometry, chunked, floorGeometry,
 * along, archPieces, signWall, ribbon, mapTexture}.
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
  // walls (flat x0, z0, x1, z1, ... of the given thickness) grouped by the square (side mm)
  // holding their middle, as [{walls: [[x0, z0, x1, z1, thickness], ...], box: [x0, z0, x1, z1]}]
  // with each group's extent (long walls make their group's extent larger, never get cut); a
  // group's walls are listed when first asked for (most groups are never seen)
  function chunked(segments, thickness, side) {
    var groups = {}, list = [], half = thickness / 2;
    for (var k = 0; k < segments.length; k += 4) {
      var x0 = segments[k], z0 = segments[k + 1], x1 = segments[k + 2], z1 = segments[k + 3];
      var key = Math.floor((z0 + z1) / 2 / side) * 1e6 + Math.floor((x0 + x1) / 2 / side);
      var group = groups[key];
      if (!group) {
        group = groups[key] = { indices: [], box: [Infinity, Infinity, -Infinity, -Infinity] };
        list.push(group);
      }
      group.indices.push(k);
      var length = Math.hypot(x1 - x0, z1 - z0) || 1;
      var across = Math.abs(z1 - z0) / length * half, down = Math.abs(x1 - x0) / length * half;   // the normal's reach
      var box = group.box;
      box[0] = Math.min(box[0], x0 - across, x1 - across); box[2] = Math.max(box[2], x0 + across, x1 + across);
      box[1] = Math.min(box[1], z0 - down, z1 - down); box[3] = Math.max(box[3], z0 + down, z1 + down);
    }
    return list.map(function (group) {
      return {
        box: group.box,
        walls: function () {
          return group.indices.map(function (k) { return [segments[k], segments[k + 1], segments[k + 2], segments[k + 3], thickness]; });
        }
      };
    });
  }

  // the outline (point ids, closed; points flat x, z, ...) as triangles on y = 0, seen from above
  function floorGeometry(points, outline) {
    var contour = outline.map(function (id) { return new THREE.Vector2(points[2 * id], points[2 * id + 1]); });
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
  // outline, the scene's walls, the ground around; about `pixelsPerMm` (at most 2048 pixels a side)
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
    scene.floor.forEach(function (id, n) {
      var x = scene.points[2 * id], z = scene.points[2 * id + 1];
      if (n) pen.lineTo(x, z); else pen.moveTo(x, z);
    });
    pen.closePath();
    pen.fillStyle = hex(colours.floor);
    pen.fill();
    pen.strokeStyle = hex(colours.top);
    pen.lineCap = "butt";
    pen.lineWidth = Math.max(scene.wall_thickness, 1 / scale);   // at least a pixel
    pen.beginPath();
    for (var k = 0; k < walls.length; k += 4) { pen.moveTo(walls[k], walls[k + 1]); pen.lineTo(walls[k + 2], walls[k + 3]); }
    pen.stroke();
    var texture = new THREE.CanvasTexture(canvas);
    texture.magFilter = THREE.NearestFilter;
    texture.minFilter = THREE.LinearMipmapLinearFilter;
    if ("colorSpace" in texture) texture.colorSpace = THREE.SRGBColorSpace;   // r152+: the pixels are sRGB
    return texture;
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.meshes = {
    colourOf: colourOf, palette: palette, wallGeometry: wallGeometry, edgeGeometry: edgeGeometry, chunked: chunked,
    floorGeometry: floorGeometry, along: along, archPieces: archPieces, signWall: signWall, ribbon: ribbon,
    mapTexture: mapTexture
  };
})();
