/* laby3d browser walk-through for a maze of any shape. Needs THREE (classic build),
 * LABY3D_WALK's cellModel, wallSet, meshes, words and controls, and the page's data {scene,
 * text} (the JSON of the element #laby3d-page, or window.LABY3D_PAGE): the scene file's object
 * (docs/scene-format.md, version 5: every position is in it, so nothing here knows a shape) and
 * the page's texts in one language.
 * Scene units are millimetres: x to the right, z down the picture, y up.
 * Test hook: window.laby3d (ready, position, cell, heading, exited, steps, track, simulate, place…).
 */
(function () {
  "use strict";
  function byId(id) { return document.getElementById(id); }
  // JSON.parse reads a large scene several times faster than a script would
  var PAGE = window.LABY3D_PAGE = window.LABY3D_PAGE || JSON.parse(byId("laby3d-page").textContent);
  var M = PAGE.scene, WORDS = window.LABY3D_WALK.words(PAGE.text), say = WORDS.say;
  var ALLOW = M.walk || { overview: true, trail: true, hint: true, timer: true, steps: true };
  var S = M.cell_size, T = M.wall_thickness, H = M.wall_height;
  var WIDTH = M.size[0], DEPTH = M.size[1];
  var EYE = 0.6 * H;                      // always above the floor and below the wall tops
  var RADIUS = 0.25 * M.narrowest_passage;   // the walker's half width, mm: it passes the narrowest passage
  var SPEED = 1.6 * S;                    // mm per second
  var TURN = 1.8;                         // radians per second (keys, full stick)
  var STEP = 1 / 120;                     // fixed physics step, seconds: cells and the exit are checked after each
  var LONGEST_GAP = 5;                    // seconds walked at most in one catch-up (a suspended tab)
  var CHUNK = 8;                          // cells per side of a chunk of wall geometry
  var ARROW_PX = 30;                      // player arrow on the map, CSS pixels long
  // face colours by the direction a face looks (WCAG luminance N 0.09, E 0.48, S 0.07, W 0.46:
  // neighbouring orientations differ by 3.6:1 or more at their tops), tops, floor, ground, sky, edges
  var COLOURS = {
    north: 0x31558f, east: 0x9dbbe6, south: 0x4a3f85, west: 0xe9a93b, top: 0x3a4660,
    floor: 0xecebe6, ground: 0x9cc27a, sky: 0xbfe3ff, edge: 0x1b2433,
    start: 0x2fae4f, exit: 0xe0402a, trail: 0xdd3322
  };
  var BASE_SHADE = 0.72;                  // colour at the foot of a wall relative to its top edge

  var hook = window.laby3d = {
    ready: false, exited: false, position: { x: 0, z: 0 }, cell: [0, 0], heading: 0, steps: 0, seconds: 0,
    overview: false, trail: false, hint: false, help: true, touch: false, contextLost: false, error: null,
    firstFrameMs: null, frameMs: null, frames: 0, keyTimes: null, renderScale: 1,
    track: null
  };
  // a button does its action when clicked (mouse, keyboard) or when a finger or pen lifts off it:
  // the browser drops the click of a tap that comes while a quick drag is still "flinging"
  // (nothing scrolls on this page, so the pupil would see a tap that did nothing)
  function onPress(button, action) {
    var finger = null, tapped = -Infinity;
    button.addEventListener("pointerdown", function (event) { if (event.pointerType !== "mouse") finger = event.pointerId; });
    button.addEventListener("pointerup", function (event) {
      if (event.pointerId !== finger) return;
      finger = null;
      var under = document.elementFromPoint(event.clientX, event.clientY);
      if (under !== button && !button.contains(under)) return;
      tapped = performance.now();
      action();
    });
    button.addEventListener("pointercancel", function () { finger = null; });
    button.addEventListener("click", function (event) {
      event.preventDefault();
      button.blur();
      if (performance.now() - tapped > 1000) action();   // not the click of a tap already done
    });
  }
  var messageBox = byId("laby3d-message");
  function message(text, again) {         // again: with a "play again" button
    messageBox.textContent = text;
    if (again) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = say("button_again", {});
      onPress(button, function () { restart(); });
      messageBox.appendChild(document.createElement("br"));
      messageBox.appendChild(button);
    }
    messageBox.style.display = text ? "block" : "none";
  }

  var model = window.LABY3D_WALK.cellModel(M), centre = model.centre, meshes = window.LABY3D_WALK.meshes;
  // what the feet meet: the walls and the two doors (open to the eye, closed to the feet); the
  // exit is found on entering its cell or on reaching its door (an exit in the start's cell)
  var solid = M.walls;
  [M.entrance, M.exit].forEach(function (o) { if (o && o.door) solid = solid.concat(o.door); });
  var walls = window.LABY3D_WALK.wallSet(solid, T, S);
  var exitDoor = M.exit && M.exit.door ? window.LABY3D_WALK.wallSet(M.exit.door, T, S) : null;
  var DOOR_REACHED = 1e-3 * S;             // mm between the walker and the exit's door that count as there
  var here = 0;                            // the walker's cell (index); hook.cell is its [row, col]

  // ---------- the walker ----------
  var player = { x: 0, z: 0, yaw: 0, pitch: 0 };
  var clock = { running: false, seconds: 0 };
  var visited = new Uint8Array(model.count);   // cells walked through, dotted on the map
  function start() {
    var from = model.start();
    player.x = from.x; player.z = from.z;
    player.yaw = Math.atan2(from.facing[0], -from.facing[1]);   // yaw 0 looks up the map (-z), pi/2 right (+x)
    player.pitch = 0;
    hook.exited = false; hook.steps = 0;
    clock.running = false; clock.seconds = 0;
    here = model.cellAt(player.x, player.z, from.cell);
    hook.cell = model.position(here);
    visited.fill(0);
    visited[here] = 1;
    if (hook.track) hook.track = [[player.x, player.z]];
    message("");
    observe();
  }
  function clockText(seconds) {
    var s = Math.floor(seconds);
    return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
  }
  function exitMessage() {
    var parts = [say("exit_found", {})];
    if (ALLOW.timer) parts.push(say("exit_time", { time: clockText(clock.seconds) }));
    if (ALLOW.steps) parts.push(say("exit_steps", { steps: hook.steps }));
    if (!hook.touch) parts.push(say("exit_again_keys", {}));
    return parts.join(" ");
  }
  function arrive() {                     // after each physics step: the cell entered, the exit
    var cell = model.cellAt(player.x, player.z, here);
    if (hook.track) hook.track.push([player.x, player.z]);
    if (cell !== here) {
      hook.steps += 1;
      visited[cell] = 1;
      here = cell;
      hook.cell = model.position(cell);
      if (cell === model.exitCell) found();
    }
    if (here === model.exitCell && exitDoor && exitDoor.clearance(player.x, player.z) <= RADIUS + DOOR_REACHED) found();
  }
  function found() {
    if (hook.exited) return;
    hook.exited = true;
    clock.running = false;
    hook.exitedAfter = clock.seconds;
    message(exitMessage(), true);
  }
  function observe() {                    // after a move, for the eye: hook, HUD, hint
    hook.position = { x: player.x, z: player.z };
    hook.heading = player.yaw;
    hook.seconds = clock.seconds;
    if (hintState.until) pointHint();
    showHud();
  }
  function stepPlayer(input, dt) {
    player.yaw += input.turn * TURN * dt;
    var length = Math.max(1, Math.hypot(input.forward, input.strafe));
    var sx = Math.sin(player.yaw), cz = -Math.cos(player.yaw);   // forward direction (x, z)
    var dx = (input.forward * sx - input.strafe * cz) * SPEED * dt / length;
    var dz = (input.forward * cz + input.strafe * sx) * SPEED * dt / length;
    if (dx || dz) {
      if (!clock.running && !hook.exited && hook.steps === 0 && clock.seconds === 0) clock.running = true;
      var to = walls.move(player.x, player.z, dx, dz, RADIUS);
      player.x = to[0]; player.z = to[1];
      arrive();
    }
    if (clock.running) clock.seconds += dt;
  }
  function advance(input, seconds) {     // fixed steps: the same path whatever the frame rate
    var steps = Math.round(seconds / STEP);
    for (var n = 0; n < steps; n++) stepPlayer(input, STEP);
    observe();
  }

  // ---------- time: the walker moves in fixed steps up to each change of input ----------
  var controls = null;                     // keyboard, mouse, touch: set up once the page is drawn
  function moving(input) { return input.forward !== 0 || input.strafe !== 0 || input.turn !== 0; }
  var physicsTime = null, spare = 0;
  // walk the time up to `now` (ms, performance.now() clock) with the input held until then; an
  // event stamped before the time already walked (rare: it waited behind a frame) counts from then
  function catchUp(now) {
    if (physicsTime !== null && now > physicsTime) {
      var input = controls ? controls.input() : window.LABY3D_WALK.inputOf({});
      spare += Math.min((now - physicsTime) / 1000, LONGEST_GAP);
      var steps = Math.floor(spare / STEP);
      spare -= steps * STEP;
      if (moving(input) || clock.running) {   // a running clock alone changes the HUD, not the picture
        for (var n = 0; n < steps; n++) stepPlayer(input, STEP);
        if (steps) { observe(); dirty = dirty || moving(input); }
      }
    }
    if (physicsTime === null || now > physicsTime) physicsTime = now;
  }

  // ---------- three.js: renderer, scene, cameras ----------
  var canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", document.title + ". " + say("canvas_label", { cells: model.count }));
  canvas.textContent = say("canvas_label", { cells: model.count });   // where a canvas is not shown
  var renderer, context;
  try {
    context = canvas.getContext("webgl2") || canvas.getContext("webgl");
    if (!context) throw new Error("no WebGL");
    renderer = new THREE.WebGLRenderer({ canvas: canvas, context: context, antialias: false });
  } catch (err) {
    message(say("needs_webgl"));
    hook.error = "webgl";
    return;
  }
  // resolution follows the frame time: a slow computer draws fewer pixels (down to half per axis).
  // Resizing clears the picture, so a change of resolution is always followed by a drawing.
  // Sizes are the layout viewport's (CSS px); the canvases fill it by CSS, only their pixels are
  // set here: a canvas sized in CSS px from a stale size (a phone turning) would widen the page,
  // and a phone browser zooms a wide page out (and reports the zoomed size back)
  function screenSize() { return [document.documentElement.clientWidth, document.documentElement.clientHeight]; }
  var PIXEL_RATIO = Math.min(window.devicePixelRatio || 1, 2), SLOW_MS = 70, FAST_MS = 25;
  var scaling = { scale: 1, fixed: false, walking: 1 };   // walking: the scale kept while on the map
  function setRenderScale(scale) {
    scaling.scale = Math.max(0.5, Math.min(1, scale));
    renderer.setPixelRatio(PIXEL_RATIO * scaling.scale);
    renderer.setSize(screenSize()[0], screenSize()[1], false);
    hook.renderScale = scaling.scale;
    dirty = true;
  }
  function adaptScale(ms) {
    if (scaling.fixed || hook.overview) return;
    if (ms > SLOW_MS && scaling.scale > 0.5) setRenderScale(scaling.scale * 0.85);
    else if (ms < FAST_MS && scaling.scale < 1) setRenderScale(scaling.scale * 1.1);
  }
  renderer.setPixelRatio(PIXEL_RATIO);
  renderer.setSize(screenSize()[0], screenSize()[1], false);
  document.body.insertBefore(canvas, document.body.firstChild);
  var scene = new THREE.Scene();
  scene.background = new THREE.Color(COLOURS.sky);
  var FOG_NEAR = 8 * S, FOG_FAR = 30 * S, EDGE_RANGE = 12 * S;   // edges beyond EDGE_RANGE are fog anyway
  scene.fog = new THREE.Fog(COLOURS.sky, FOG_NEAR, FOG_FAR);
  var camera = new THREE.PerspectiveCamera(70, screenSize()[0] / screenSize()[1],
                                           Math.min(0.05 * S, 0.5 * EYE, 0.5 * RADIUS), FOG_FAR + S);
  var mapCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, 10);

  var WALL_COLOURS = meshes.palette(COLOURS, BASE_SHADE);

  // walls in chunks of about CHUNK x CHUNK cells (by where their middle is); geometry built when first seen
  var chunks = meshes.chunked(M.walls, T, CHUNK * S)
    .map(function (group) {
      var b = group.box;
      return { walls: group.walls, mesh: null, edges: null,
               bounds: new THREE.Box3(new THREE.Vector3(b[0], 0, b[1]), new THREE.Vector3(b[2], H, b[3])) };
    });
  var wallMaterial = new THREE.MeshBasicMaterial({ vertexColors: true, polygonOffset: true,   // edges win
                                                   polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
  var edgeMaterial = new THREE.LineBasicMaterial({ color: COLOURS.edge });
  function buildChunk(chunk) {
    var walls = chunk.walls();
    chunk.mesh = new THREE.Mesh(meshes.wallGeometry(walls, H, WALL_COLOURS), wallMaterial);
    chunk.edges = new THREE.LineSegments(meshes.edgeGeometry(walls, H), edgeMaterial);
    scene.add(chunk.mesh);
    scene.add(chunk.edges);
    hook.chunksBuilt += 1;
  }
  hook.chunks = chunks.length;
  hook.chunksBuilt = 0;
  var frustum = new THREE.Frustum(), viewProjection = new THREE.Matrix4();
  function cullChunks(cam, edgeRange) {  // only chunks in view are drawn (and built)
    cam.updateMatrixWorld();
    viewProjection.multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
    frustum.setFromProjectionMatrix(viewProjection);
    var drawn = 0;
    chunks.forEach(function (chunk) {
      var visible = frustum.intersectsBox(chunk.bounds);
      if (visible && !chunk.mesh) buildChunk(chunk);
      if (chunk.mesh) {
        chunk.mesh.visible = visible;
        chunk.edges.visible = visible && chunk.bounds.distanceToPoint(cam.position) < edgeRange;
      }
      if (visible) drawn += 1;
    });
    hook.chunksDrawn = drawn;
  }

  // the floor of the maze (inside its outline), the ground around it
  function flatMaterial(colour) {
    return new THREE.MeshBasicMaterial({ color: colour, polygonOffset: true, polygonOffsetFactor: 2,
                                         polygonOffsetUnits: 2 });
  }
  var reach = Math.max(WIDTH, DEPTH) + 2 * FOG_FAR;
  var ground = new THREE.Mesh(new THREE.PlaneGeometry(WIDTH + 2 * reach, DEPTH + 2 * reach), flatMaterial(COLOURS.ground));
  ground.rotation.x = -Math.PI / 2;
  ground.position.set(WIDTH / 2, -0.02 * H, DEPTH / 2);
  scene.add(ground);
  scene.add(new THREE.Mesh(meshes.floorGeometry(M.points, M.floor), flatMaterial(COLOURS.floor)));

  // entrance and exit, told apart by shape as well as colour: the start has square floor signs
  // and a flat-topped arch over its door, the exit diamond signs and an arch with a stepped gable;
  // a start with no door (a round maze's centre) has its sign alone; in a cell that is both, the
  // exit's sign lies on the start's
  function mark(opening, colour, isExit) {
    if (!opening) return;
    var k = model.index(opening.row, opening.col), p = centre(k), half = 0.35 * (S - T);
    var palette = meshes.palette({ north: colour, south: colour, east: colour, west: colour, top: colour }, 0.6);
    var material = new THREE.MeshBasicMaterial({ vertexColors: true });
    var door = [], signs = [], chord = [1, 0];
    for (var n = 0; opening.door && n < opening.door.length; n += 4) door.push(opening.door.slice(n, n + 4));
    if (door.length) {
      var last = door[door.length - 1], middle = model.doorMiddle(opening.door);
      chord = [last[2] - door[0][0], last[3] - door[0][1]];
      var length = Math.hypot(chord[0], chord[1]) || 1, out = [chord[1] / length, -chord[0] / length];
      if (out[0] * (middle[0] - p[0]) + out[1] * (middle[1] - p[1]) < 0) out = [-out[0], -out[1]];
      signs.push(meshes.signWall(middle[0] + out[0] * S / 2, middle[1] + out[1] * S / 2, half, chord, isExit));
      meshes.archPieces(door, T, H, 0.25 * H, isExit ? 4 : 1).forEach(function (piece) {
        var mesh = new THREE.Mesh(meshes.wallGeometry([piece.wall], piece.top - piece.bottom, palette), material);
        mesh.position.y = piece.bottom;
        scene.add(mesh);
      });
    }
    signs.push(meshes.signWall(p[0], p[1], half, chord, isExit));
    scene.add(new THREE.Mesh(meshes.wallGeometry(signs, (isExit ? 0.012 : 0.01) * H, palette), material));
  }
  mark(M.entrance, COLOURS.start, false);
  mark(M.exit, COLOURS.exit, true);

  // the solution trail (built on first use): a flat ribbon on the floor from door to door,
  // through the cell centres and the middles of the walls crossed
  var trailMesh = null;
  function buildTrail() {
    trailMesh = new THREE.Mesh(meshes.wallGeometry(meshes.ribbon(model.trail(), 0.16 * S), 0.03 * H,
                                                   meshes.palette(COLOURS.trail, 1)),
                               new THREE.MeshBasicMaterial({ vertexColors: true }));
    scene.add(trailMesh);
  }

  // the "which way?" hint: an arrow at the top of the screen (so it shows wherever the walker
  // stands), turned towards the next cell on the way out as the walker turns
  var hintState = { until: 0 }, wayBox = byId("laby3d-way");
  var WAY_WORDS = ["way_ahead", "way_right", "way_back", "way_left"];
  function pointHint() {
    var way = model.wayOut(here), to = way.target;
    var dir = to ? [to[0] - player.x, to[1] - player.z] : [0, 0];
    var turn = Math.atan2(dir[0], -dir[1]) - player.yaw;                 // clockwise from straight ahead
    turn = Math.atan2(Math.sin(turn), Math.cos(turn));
    var degrees = turn * 180 / Math.PI;
    wayBox.firstElementChild.style.transform = "rotate(" + degrees.toFixed(1) + "deg)";
    wayBox.setAttribute("aria-label", say(WAY_WORDS[(Math.round(degrees / 90) + 4) % 4], {}));
    hook.hintCell = way.next === null ? null : model.position(way.next);
    hook.hintDirection = dir;
    hook.hintTurn = turn;
  }

  // ---------- the map (overview): orthographic, north up, fitted, zoomed and panned ----------
  var view = { x: WIDTH / 2, z: DEPTH / 2, half: 1, widest: 1 };   // centre and half the screen height, mm
  var MAP_MIN_CELL_PX = 6;                // a map coarser than this starts zoomed in on the walker
  function fitView() {                    // the whole maze in any window shape, if readable there
    var aspect = screenSize()[0] / screenSize()[1];
    view.x = WIDTH / 2; view.z = DEPTH / 2;
    view.half = 1.06 * Math.max(DEPTH / 2, WIDTH / 2 / aspect) + S;
    view.widest = 1.5 * view.half;
    var readable = screenSize()[1] * S / (2 * MAP_MIN_CELL_PX);
    if (view.half > readable) { view.half = readable; view.x = player.x; view.z = player.z; }
  }
  function placeMapCamera() {
    var aspect = screenSize()[0] / screenSize()[1];
    view.half = Math.max(2 * S, Math.min(view.half, view.widest));   // from 4 cells to the whole maze
    view.x = Math.max(0, Math.min(WIDTH, view.x));                    // the maze stays in sight
    view.z = Math.max(0, Math.min(DEPTH, view.z));
    mapCamera.left = -view.half * aspect; mapCamera.right = view.half * aspect;
    mapCamera.top = view.half; mapCamera.bottom = -view.half;
    mapCamera.near = 0.5 * H; mapCamera.far = 20 * H;
    mapCamera.position.set(view.x, 10 * H, view.z);
    mapCamera.up.set(0, 0, -1);
    mapCamera.lookAt(view.x, 0, view.z);
    mapCamera.updateProjectionMatrix();
  }
  function screenToWorld(px, py) {       // CSS pixels -> (x, z) mm on the map
    var size = screenSize(), scale = 2 * view.half / size[1];
    return [view.x + (px - size[0] / 2) * scale, view.z + (py - size[1] / 2) * scale];
  }
  function zoomAt(px, py, factor) {      // the point under (px, py) stays put
    var before = screenToWorld(px, py);
    view.half *= factor;
    placeMapCamera();
    var after = screenToWorld(px, py);
    view.x += before[0] - after[0]; view.z += before[1] - after[1];
    dirty = true;
  }
  function panBy(dxPx, dyPx) {
    var scale = 2 * view.half / screenSize()[1];
    view.x -= dxPx * scale; view.z -= dyPx * scale;
    dirty = true;
  }
  var overlay = byId("laby3d-map"), pen = overlay.getContext("2d");
  function sizeOverlay() {              // its pixels (device pixels); CSS sizes it to the screen
    var ratio = window.devicePixelRatio || 1, size = screenSize();
    overlay.width = Math.round(size[0] * ratio); overlay.height = Math.round(size[1] * ratio);
    pen.setTransform(ratio, 0, 0, ratio, 0, 0);
  }
  function toScreen(cam, x, y, z) {
    var v = new THREE.Vector3(x, y, z).project(cam), size = screenSize();
    return [(v.x + 1) / 2 * size[0], (1 - v.y) / 2 * size[1]];
  }
  var sameCell = M.entrance && M.exit && M.entrance.row === M.exit.row && M.entrance.col === M.exit.col;
  function drawOverlay() {
    var size = screenSize();
    pen.clearRect(0, 0, size[0], size[1]);
    if (!hook.overview) return;
    pen.font = "bold 16px sans-serif";
    pen.textAlign = "center";
    [[M.entrance, "start_sign", COLOURS.start, -14], [M.exit, "exit_sign", COLOURS.exit, sameCell ? 28 : -14]]
      .forEach(function (sign) {
        if (!sign[0]) return;
        var p = centre(model.index(sign[0].row, sign[0].col)), s = toScreen(mapCamera, p[0], H, p[1]);
        pen.lineWidth = 4; pen.strokeStyle = "white";
        pen.strokeText(say(sign[1], {}), s[0], s[1] + sign[3]);
        pen.fillStyle = "#" + ("00000" + sign[2].toString(16)).slice(-6);
        pen.fillText(say(sign[1], {}), s[0], s[1] + sign[3]);
      });
    var scale = size[1] / (2 * view.half);   // CSS pixels per mm, north up
    var dot = Math.max(1.5, 0.12 * S * scale);
    pen.fillStyle = "rgba(30, 110, 255, 0.55)";
    for (var k = 0; k < visited.length; k++) {
      if (!visited[k]) continue;
      var c = centre(k);
      var x = size[0] / 2 + (c[0] - view.x) * scale, y = size[1] / 2 + (c[1] - view.z) * scale;
      if (x < -dot || y < -dot || x > size[0] + dot || y > size[1] + dot) continue;
      pen.fillRect(x - dot, y - dot, 2 * dot, 2 * dot);
    }
    var at = toScreen(mapCamera, player.x, H, player.z), L = ARROW_PX;
    pen.save();
    pen.translate(at[0], at[1]);
    pen.rotate(player.yaw);               // yaw 0 = north = up the screen; positive turns clockwise
    pen.beginPath();
    pen.moveTo(0, -L / 2); pen.lineTo(L * 0.4, L / 2); pen.lineTo(0, L * 0.25); pen.lineTo(-L * 0.4, L / 2);
    pen.closePath();
    pen.lineWidth = 3; pen.strokeStyle = "white"; pen.stroke();
    pen.fillStyle = "#ff1f8e"; pen.fill();
    pen.restore();
    hook.arrowAt = at;
  }

  // ---------- drawing ----------
  var dirty = true;
  function placeWalkCamera() {
    camera.position.set(player.x, EYE, player.z);
    var cp = Math.cos(player.pitch);
    camera.lookAt(player.x + Math.sin(player.yaw) * cp, EYE + Math.sin(player.pitch),
                  player.z - Math.cos(player.yaw) * cp);
  }
  function activeCamera() {
    if (hook.overview) { placeMapCamera(); return mapCamera; }
    placeWalkCamera();
    return camera;
  }
  // a map zoomed out past a few pixels per cell is one picture of the maze (a mipmapped texture,
  // about two pixels a wall across) instead of thousands of sub-pixel walls that shimmer
  var MAP_PICTURE_BELOW_PX = 4, mapPicture = null;
  function buildMapPicture() {
    var texture = meshes.mapTexture(M, M.walls, COLOURS, 2 / T);
    mapPicture = new THREE.Mesh(new THREE.PlaneGeometry(WIDTH, DEPTH), new THREE.MeshBasicMaterial({ map: texture }));
    mapPicture.rotation.x = -Math.PI / 2;
    mapPicture.position.set(WIDTH / 2, H * 1.01, DEPTH / 2);
    scene.add(mapPicture);
  }
  function render() {
    if (hook.contextLost) return;
    var cam = activeCamera();
    var pixelsPerCell = screenSize()[1] / (2 * view.half) * S;
    var picture = hook.overview && pixelsPerCell < MAP_PICTURE_BELOW_PX;
    if (picture && !mapPicture) buildMapPicture();
    if (mapPicture) mapPicture.visible = picture;
    if (picture) chunks.forEach(function (chunk) { if (chunk.mesh) chunk.mesh.visible = chunk.edges.visible = false; });
    else cullChunks(cam, hook.overview ? (pixelsPerCell > 8 ? Infinity : 0) : EDGE_RANGE);
    hook.mapPicture = picture;
    scene.fog.near = hook.overview ? 1e9 : FOG_NEAR;
    scene.fog.far = hook.overview ? 2e9 : FOG_FAR;
    renderer.render(scene, cam);
    drawOverlay();
    hook.frames += 1;
    dirty = false;
  }
  function showHud() {
    var parts = [];
    if (ALLOW.timer) parts.push(say("timer", { time: clockText(clock.seconds) }));
    if (ALLOW.steps) parts.push(say("steps", { steps: hook.steps }));
    var text = parts.join(" · ");
    var hud = byId("laby3d-hud");
    if (hud.textContent !== text) hud.textContent = text;
  }

  // ---------- toggles (keys and buttons) ----------
  var buttons = {};
  function pressed(name, on) { if (buttons[name]) buttons[name].setAttribute("aria-pressed", on ? "true" : "false"); }
  function setOverview(on) {
    if (!ALLOW.overview) on = false;
    if (on && !hook.overview) { fitView(); if (document.pointerLockElement) document.exitPointerLock(); }
    if (on !== hook.overview && !scaling.fixed) {   // the map is drawn on demand: sharp, at full resolution
      if (on) { scaling.walking = scaling.scale; setRenderScale(1); } else setRenderScale(scaling.walking);
    }
    hook.overview = on; pressed("overview", on); dirty = true;
  }
  function setTrail(on) {
    if (!ALLOW.trail) on = false;
    if (on && !trailMesh) buildTrail();
    if (trailMesh) trailMesh.visible = on;
    hook.trail = on; pressed("trail", on); dirty = true;
  }
  var HINT_SECONDS = 6;
  function showHint() {
    if (!ALLOW.hint) return;
    hintState.until = performance.now() + HINT_SECONDS * 1000;
    hook.hint = true; pressed("hint", true);
    pointHint();
    wayBox.style.display = "block";
  }
  function hideHint() {
    hintState.until = 0; hook.hint = false; pressed("hint", false);
    wayBox.style.display = "none";
  }
  function setHelp(on) {
    byId("laby3d-help").style.display = on ? "block" : "none";
    hook.help = on; pressed("help", on);
  }
  // where am I? said by the live region (a screen reader reads it out), in the page's language
  var speech = byId("laby3d-speech");
  function tellWhere() {
    var text = WORDS.where(model, here, player.x, player.z, player.yaw);
    speech.textContent = speech.textContent === text ? text + "\u00a0" : text;   // said again if asked again
    hook.said = text;
  }
  function restart() { start(); setTrail(hook.trail); dirty = true; }
  var ACTIONS = {
    overview: function () { setOverview(!hook.overview); },
    trail: function () { setTrail(!hook.trail); },
    hint: function () { if (hook.hint) hideHint(); else showHint(); },
    restart: restart,
    help: function () { setHelp(!hook.help); },
    where: tellWhere
  };

  // the help: the name and goal, then how to play with keys and mouse (named as the pupil's
  // keyboard labels them, once the browser says), or with fingers (short)
  var HELP_KEYS = ["help_look", "help_keys", "help_overview", "help_trail", "help_hint", "help_always"];
  var HELP_TOUCH = ["help_touch"];
  function writeHelp() {
    var help = byId("laby3d-help"), title = document.createElement("b");
    help.textContent = "";
    title.textContent = document.title;
    help.appendChild(title);
    (hook.touch ? HELP_TOUCH : HELP_KEYS).forEach(function (key) {
      var name = key.slice(5);
      if (name in ALLOW && !ALLOW[name]) return;
      if (key === "help_keys" && !WORDS.layoutKnown()) key = "help_keys_unknown";
      help.appendChild(document.createElement("br"));
      help.appendChild(document.createTextNode(say(key, {})));
    });
  }
  function touched() {                    // a finger or pen: the touch help and exit message from now on
    if (hook.touch) return;
    hook.touch = true;
    document.body.classList.add("laby3d-touch");
    writeHelp();
    if (hook.exited) message(exitMessage(), true);
  }
  function buildHelpAndButtons() {
    writeHelp();
    ["overview", "trail", "hint", "where", "restart", "help"].forEach(function (name) {
      if (name in ALLOW && !ALLOW[name]) return;
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = say("button_" + name, {});
      button.setAttribute("data-action", name);
      if (name in ALLOW || name === "help") button.setAttribute("aria-pressed", "false");
      onPress(button, function () { ACTIONS[name](); });
      byId("laby3d-buttons").appendChild(button);
      buttons[name] = button;
    });
    pressed("help", true);
  }

  // ---------- input ----------
  function look(dx, dy, radiansPerPixel, time) {
    catchUp(time);
    player.yaw += dx * radiansPerPixel;
    player.pitch = Math.max(-1.2, Math.min(1.2, player.pitch - dy * radiansPerPixel));
    observe(); dirty = true;
  }
  buildHelpAndButtons();
  WORDS.readLayout(function () { writeHelp(); if (hook.exited) message(exitMessage(), true); });
  controls = window.LABY3D_WALK.controls({
    canvas: canvas, stick: byId("laby3d-stick"),
    mapShown: function () { return hook.overview; },
    allowed: function (action) { return !(action in ALLOW && !ALLOW[action]); },
    settle: catchUp,
    pause: function () { physicsTime = null; },
    touched: touched,
    act: function (action) { ACTIONS[action](); },
    look: look, pan: panBy, zoom: zoomAt
  });
  hook.keyTimes = controls.keyTimes;

  window.addEventListener("resize", function () {
    camera.aspect = screenSize()[0] / screenSize()[1];
    camera.updateProjectionMatrix();
    renderer.setSize(screenSize()[0], screenSize()[1], false);
    sizeOverlay();
    if (hook.overview) fitView();
    dirty = true;
  });

  // a lost graphics context (driver reset, too many tabs): say so, draw again once restored
  canvas.addEventListener("webglcontextlost", function (event) {
    event.preventDefault();
    hook.contextLost = true;
    message(say("context_lost", {}));
  });
  canvas.addEventListener("webglcontextrestored", function () {
    hook.contextLost = false;
    if (hook.exited) message(exitMessage(), true); else message("");
    dirty = true;
  });

  // ---------- the loop ----------
  var lastDrawn = null;
  function frame(now) {
    catchUp(performance.now());
    if (hintState.until && performance.now() > hintState.until) hideHint();
    if (clock.running) showHud();
    var walking = moving(controls.input());
    if (dirty || walking) {
      // while walking, frame to frame (the whole cost) sets the resolution, before drawing: a
      // resize clears the picture, and a still page must keep the last one it drew
      if (walking && lastDrawn !== null) adaptScale(now - lastDrawn);
      lastDrawn = walking ? now : null;
      var t0 = performance.now();
      render();
      hook.frameMs = performance.now() - t0;
      if (!hook.ready) { hook.ready = true; hook.firstFrameMs = performance.now(); }
    } else {
      lastDrawn = null;
    }
    requestAnimationFrame(frame);
  }

  // ---------- test and benchmark hook ----------
  hook.simulate = function (codes, seconds) {   // walk with these key codes held for so many seconds
    var keys = {};
    codes.forEach(function (code) { keys[code] = true; });
    advance(window.LABY3D_WALK.inputOf(keys), seconds);
    render();
    return hook.cell.slice();
  };
  hook.place = function (x, z, yaw, pitch) {    // stand at (x, z) mm looking along yaw (radians)
    player.x = x; player.z = z; player.yaw = yaw; player.pitch = pitch || 0;
    here = model.cellAt(x, z, here);
    hook.cell = model.position(here);
    observe(); render();
  };
  hook.record = function () {                   // from now on, hook.track gets [x, z] after every physics step
    hook.track = [[player.x, player.z]];
  };
  hook.clearance = function () { return walls.clearance(player.x, player.z); };
  hook.radius = RADIUS;
  hook.project = function (x, z, y) {            // screen point (CSS px) of (x, y, z) mm in the current view
    var cam = activeCamera();
    cam.updateMatrixWorld();
    return toScreen(cam, x, y === undefined ? H : y, z);
  };
  hook.timeFrame = function () {                 // ms to draw one frame and wait for it (a 1-pixel read-back)
    var t0 = performance.now(), gl = renderer.getContext(), pixel = new Uint8Array(4);
    render();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    return performance.now() - t0;
  };
  hook.snapshot = function () {                 // the view and the map's marks as one PNG data URL
    render();
    var picture = document.createElement("canvas");
    picture.width = overlay.width; picture.height = overlay.height;
    var draw = picture.getContext("2d");
    draw.drawImage(canvas, 0, 0, picture.width, picture.height);   // right after drawing: still there
    draw.drawImage(overlay, 0, 0);
    return picture.toDataURL("image/png");
  };
  hook.render = render;
  hook.setRenderScale = function (scale) { scaling.fixed = true; setRenderScale(scale); };
  hook.setOverview = setOverview;
  hook.setTrail = setTrail;
  hook.zoomAt = zoomAt;

  sizeOverlay();
  start();
  requestAnimationFrame(frame);
})();
