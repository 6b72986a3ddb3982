/* laby3d browser walk-through. Needs THREE (classic build) and window.LABY3D_MAZE.
 * Scene units are millimetres: x to the right (columns), z down the rows, y up.
 * Test hook: window.laby3d = {ready, position, cell, exited, simulate(keys, seconds), project(x, z)}.
 */
(function () {
  "use strict";
  var M = window.LABY3D_MAZE;
  var S = M.cell_size, T = M.wall_thickness, H = M.wall_height;
  var ROWS = M.rows, COLS = M.cols;
  var N = 1, E = 2, SOUTH = 4, W = 8;
  var WIDTH = COLS * S + T, DEPTH = ROWS * S + T;
  var EYE = Math.min(0.6 * H, H - 1.0);
  var RADIUS = Math.min(0.25 * (S - T), 0.3 * S);
  var SPEED = 1.6 * S;          // mm per second
  var TURN = 1.8;               // radians per second (arrow keys)
  var STEP = 1 / 120;           // fixed physics step, seconds

  var hook = window.laby3d = {
    ready: false, exited: false, position: { x: 0, z: 0 }, cell: [0, 0], heading: 0,
    overview: false, trail: false, firstFrameMs: null, frameMs: null,
    simulate: null, project: null
  };

  function message(text) {
    var box = document.getElementById("laby3d-message");
    box.textContent = text;
    box.style.display = text ? "block" : "none";
  }

  // ---------- walls as axis-aligned rectangles (posts and closed walls), mm ----------
  var rects = [];      // [x0, z0, x1, z1]
  function closed(r, c, bit) { return (M.cells[r][c] & bit) === 0; }
  for (var i = 0; i <= ROWS; i++) {
    for (var j = 0; j <= COLS; j++) {
      rects.push([j * S, i * S, j * S + T, i * S + T]);                 // post
    }
  }
  for (var r = 0; r < ROWS; r++) {
    for (var c = 0; c < COLS; c++) {
      if (closed(r, c, N)) rects.push([c * S + T, r * S, (c + 1) * S, r * S + T]);
      if (closed(r, c, W)) rects.push([c * S, r * S + T, c * S + T, (r + 1) * S]);
      if (c === COLS - 1 && closed(r, c, E)) rects.push([(c + 1) * S, r * S + T, (c + 1) * S + T, (r + 1) * S]);
      if (r === ROWS - 1 && closed(r, c, SOUTH)) rects.push([c * S + T, (r + 1) * S, (c + 1) * S, (r + 1) * S + T]);
    }
  }
  // the entrance and exit are open to the eye but closed to the feet: nobody walks round the outside
  var solid = rects.slice();
  [M.entrance, M.exit].forEach(function (o) {
    if (!o || !o.side) return;
    var x = o.col * S, z = o.row * S;
    if (o.side === "N") solid.push([x + T, z, x + S, z + T]);
    if (o.side === "S") solid.push([x + T, z + S, x + S, z + S + T]);
    if (o.side === "W") solid.push([x, z + T, x + T, z + S]);
    if (o.side === "E") solid.push([x + S, z + T, x + S + T, z + S]);
  });
  // spatial hash: rectangles by the cells they touch
  var buckets = {};
  solid.forEach(function (q, k) {
    for (var a = Math.floor(q[1] / S) - 1; a <= Math.floor(q[3] / S) + 1; a++) {
      for (var b = Math.floor(q[0] / S) - 1; b <= Math.floor(q[2] / S) + 1; b++) {
        var key = a + "," + b;
        (buckets[key] = buckets[key] || []).push(k);
      }
    }
  });
  function hits(x, z) {
    var list = buckets[Math.floor(z / S) + "," + Math.floor(x / S)] || [];
    var found = [];
    for (var n = 0; n < list.length; n++) {
      var q = solid[list[n]];
      if (x + RADIUS > q[0] && x - RADIUS < q[2] && z + RADIUS > q[1] && z - RADIUS < q[3]) found.push(q);
    }
    return found;
  }

  // ---------- player ----------
  var player = { x: 0, z: 0, yaw: 0, pitch: 0 };
  var SIDE = { N: [0, -1], S: [0, 1], W: [-1, 0], E: [1, 0] };
  function centre(r, c) { return [T / 2 + (c + 0.5) * S, T / 2 + (r + 0.5) * S]; }
  function start() {
    var e = M.entrance || { row: 0, col: 0, side: "W" };
    var p = centre(e.row, e.col);
    player.x = p[0]; player.z = p[1];
    var inward;
    if (e.side) { inward = SIDE[e.side].map(function (v) { return -v; }); }
    else if (M.solution.length > 1) { var q = centre(M.solution[1][0], M.solution[1][1]); inward = [q[0] - p[0], q[1] - p[1]]; }
    else { inward = [1, 0]; }
    player.yaw = Math.atan2(inward[0], -inward[1]);   // yaw 0 looks towards -z (north)
    player.pitch = 0;
    update();
  }
  function cellOf(x, z) {
    var c = Math.min(COLS - 1, Math.max(0, Math.floor((x - T / 2) / S)));
    var r = Math.min(ROWS - 1, Math.max(0, Math.floor((z - T / 2) / S)));
    return [r, c];
  }
  function update() {
    hook.position = { x: player.x, z: player.z };
    hook.cell = cellOf(player.x, player.z);
    hook.heading = player.yaw;
    if (M.exit && hook.cell[0] === M.exit.row && hook.cell[1] === M.exit.col && !hook.exited) {
      hook.exited = true;
      message("You found the exit! Press R to start again.");
    }
  }
  function moveAxis(dx, dz) {
    // one axis at a time, so a blocked axis slides along the wall
    player.x += dx;
    hits(player.x, player.z).forEach(function (q) {
      player.x = dx > 0 ? q[0] - RADIUS - 1e-6 : q[2] + RADIUS + 1e-6;
    });
    player.z += dz;
    hits(player.x, player.z).forEach(function (q) {
      player.z = dz > 0 ? q[1] - RADIUS - 1e-6 : q[3] + RADIUS + 1e-6;
    });
  }
  function stepPlayer(keys, dt) {
    var forward = 0, strafe = 0, turn = 0;
    if (keys.ArrowUp || keys.w || keys.W) forward += 1;
    if (keys.ArrowDown || keys.s || keys.S) forward -= 1;
    if (keys.a || keys.A) strafe -= 1;
    if (keys.d || keys.D) strafe += 1;
    if (keys.ArrowLeft) turn += 1;
    if (keys.ArrowRight) turn -= 1;
    player.yaw += turn * TURN * dt;
    var length = Math.hypot(forward, strafe) || 1;
    var sx = Math.sin(player.yaw), cz = -Math.cos(player.yaw);    // forward direction (x, z)
    var dx = (forward * sx - strafe * cz) * SPEED * dt / length;
    var dz = (forward * cz + strafe * sx) * SPEED * dt / length;
    moveAxis(dx, 0);
    moveAxis(0, dz);
    update();
  }
  function advance(keys, seconds) {       // fixed steps: independent of the frame rate
    var steps = Math.round(seconds / STEP);
    for (var n = 0; n < steps; n++) stepPlayer(keys, STEP);
  }
  hook.simulate = function (keyList, seconds) {
    var keys = {};
    keyList.forEach(function (k) { keys[k] = true; });
    advance(keys, seconds);
    render();
    return hook.cell.slice();
  };

  // ---------- three.js scene ----------
  var renderer, scene, camera, trailMesh, marker;
  try {
    var canvas = document.createElement("canvas");
    var context = canvas.getContext("webgl2") || canvas.getContext("webgl");
    if (!context) throw new Error("no WebGL");
    renderer = new THREE.WebGLRenderer({ canvas: canvas, context: context, antialias: false });
  } catch (err) {
    message("This walk-through needs WebGL, which this browser does not offer. " +
            "Try another browser, or enable hardware acceleration.");
    hook.error = "webgl";
    return;
  }
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.setSize(window.innerWidth, window.innerHeight);
  document.body.appendChild(renderer.domElement);
  scene = new THREE.Scene();
  scene.background = new THREE.Color(0xbfe3ff);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x8d8070, 0.6));
  var sun = new THREE.DirectionalLight(0xffffff, 0.55);
  sun.position.set(0.4, 1.0, 0.25);
  scene.add(sun);
  camera = new THREE.PerspectiveCamera(70, window.innerWidth / window.innerHeight, 0.5, 20 * (WIDTH + DEPTH));

  var floor = new THREE.Mesh(new THREE.BoxGeometry(WIDTH, 1, DEPTH), new THREE.MeshLambertMaterial({ color: 0xe8dcc0 }));
  floor.position.set(WIDTH / 2, -0.5, DEPTH / 2);
  scene.add(floor);

  // all walls merged into one geometry (one draw call even at 100x100): one box per straight
  // run of closed walls (posts included), plus the posts no wall touches; no bottom faces
  function lattice(i, j, horizontal) {   // is the wall from lattice point (i, j) east/south closed?
    if (horizontal) return i < ROWS ? closed(i, j, N) : closed(ROWS - 1, j, SOUTH);
    return j < COLS ? closed(i, j, W) : closed(i, COLS - 1, E);
  }
  var boxes = [], touched = {};
  for (var i2 = 0; i2 <= ROWS; i2++) {
    for (var j2 = 0; j2 < COLS; j2++) {
      if (!lattice(i2, j2, true) || (j2 > 0 && lattice(i2, j2 - 1, true))) continue;
      var j3 = j2;
      while (j3 < COLS && lattice(i2, j3, true)) { touched[i2 + "," + j3] = touched[i2 + "," + (j3 + 1)] = true; j3++; }
      boxes.push([j2 * S, i2 * S, j3 * S + T, i2 * S + T]);
    }
  }
  for (var j4 = 0; j4 <= COLS; j4++) {
    for (var i4 = 0; i4 < ROWS; i4++) {
      if (!lattice(i4, j4, false) || (i4 > 0 && lattice(i4 - 1, j4, false))) continue;
      var i5 = i4;
      while (i5 < ROWS && lattice(i5, j4, false)) { touched[i5 + "," + j4] = touched[(i5 + 1) + "," + j4] = true; i5++; }
      boxes.push([j4 * S, i4 * S, j4 * S + T, i5 * S + T]);
    }
  }
  for (var i6 = 0; i6 <= ROWS; i6++) {
    for (var j6 = 0; j6 <= COLS; j6++) {
      if (!touched[i6 + "," + j6]) boxes.push([j6 * S, i6 * S, j6 * S + T, i6 * S + T]);
    }
  }
  var corners = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
  var quads = [[0, 3, 2, 1], [4, 5, 6, 7], [2, 3, 7, 6], [1, 2, 6, 5], [0, 4, 7, 3]];
  var normals = [[0, 0, -1], [0, 0, 1], [0, 1, 0], [1, 0, 0], [-1, 0, 0]];
  var position = new Float32Array(boxes.length * quads.length * 6 * 3);
  var normal = new Float32Array(boxes.length * quads.length * 6 * 3);
  var o = 0;
  boxes.forEach(function (q) {
    var size = [q[2] - q[0], H, q[3] - q[1]], origin = [q[0], 0, q[1]];
    quads.forEach(function (quad, f) {
      [quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]].forEach(function (v) {
        for (var a = 0; a < 3; a++) {
          position[o + a] = origin[a] + corners[v][a] * size[a];
          normal[o + a] = normals[f][a];
        }
        o += 3;
      });
    });
  });
  hook.wallBoxes = boxes.length;
  var walls = new THREE.BufferGeometry();
  walls.setAttribute("position", new THREE.BufferAttribute(position, 3));
  walls.setAttribute("normal", new THREE.BufferAttribute(normal, 3));
  scene.add(new THREE.Mesh(walls, new THREE.MeshLambertMaterial({ color: 0x2f5fa7, side: THREE.DoubleSide })));

  // the solution trail (hidden until L)
  var trail = [];
  M.solution.forEach(function (cell) { var p = centre(cell[0], cell[1]); trail.push(new THREE.Vector3(p[0], 0.6, p[1])); });
  if (trail.length > 1) {
    trailMesh = new THREE.Mesh(
      new THREE.TubeGeometry(new THREE.CatmullRomCurve3(trail, false, "catmullrom", 0.0), trail.length * 4, 0.08 * S, 6, false),
      new THREE.MeshLambertMaterial({ color: 0xdd3322 }));
    trailMesh.visible = false;
    scene.add(trailMesh);
  }
  marker = new THREE.Mesh(new THREE.SphereGeometry(RADIUS, 16, 12), new THREE.MeshLambertMaterial({ color: 0xff8800 }));
  marker.visible = false;
  scene.add(marker);

  var orbit = 0.0;
  function placeCamera() {
    if (hook.overview) {
      var span = Math.max(WIDTH, DEPTH);
      var height = 0.5 * span / Math.tan(camera.fov * Math.PI / 360) * 1.15 + H;
      camera.up.set(Math.sin(orbit), 0, -Math.cos(orbit));
      camera.position.set(WIDTH / 2, height, DEPTH / 2);
      camera.lookAt(WIDTH / 2, 0, DEPTH / 2);
      marker.visible = true;
      marker.position.set(player.x, RADIUS, player.z);
    } else {
      marker.visible = false;
      camera.up.set(0, 1, 0);
      camera.position.set(player.x, EYE, player.z);
      var look = new THREE.Vector3(Math.sin(player.yaw) * Math.cos(player.pitch), Math.sin(player.pitch),
                                   -Math.cos(player.yaw) * Math.cos(player.pitch));
      camera.lookAt(player.x + look.x, EYE + look.y, player.z + look.z);
    }
  }
  function render() {
    placeCamera();
    renderer.render(scene, camera);
  }
  hook.project = function (x, z, y) {
    placeCamera();
    camera.updateMatrixWorld();
    var v = new THREE.Vector3(x, y === undefined ? H : y, z).project(camera);
    return [(v.x + 1) / 2 * window.innerWidth, (1 - v.y) / 2 * window.innerHeight];
  };
  hook.snapshot = function () {      // the frame as a PNG data URL (read right after drawing it)
    render();
    return renderer.domElement.toDataURL("image/png");
  };
  hook.timeFrame = function () {     // ms to draw one frame and wait for it (a 1-pixel read-back)
    var t0 = performance.now(), gl = renderer.getContext(), pixel = new Uint8Array(4);
    render();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    return performance.now() - t0;
  };
  function setOverview(on) { hook.overview = on; render(); }
  function setTrail(on) { hook.trail = on; if (trailMesh) trailMesh.visible = on; render(); }
  hook.setOverview = setOverview;
  hook.setTrail = setTrail;

  // ---------- input ----------
  var held = {};
  var help = document.getElementById("laby3d-help");
  window.addEventListener("keydown", function (event) {
    held[event.key] = true;
    var key = event.key.toLowerCase();
    if (key === "o") setOverview(!hook.overview);
    if (key === "l") setTrail(!hook.trail);
    if (key === "h") help.style.display = help.style.display === "none" ? "block" : "none";
    if (key === "r") { hook.exited = false; message(""); start(); render(); }
    if (event.key.indexOf("Arrow") === 0) event.preventDefault();
  });
  window.addEventListener("keyup", function (event) { held[event.key] = false; });
  renderer.domElement.addEventListener("click", function () {
    if (renderer.domElement.requestPointerLock) renderer.domElement.requestPointerLock();
  });
  document.addEventListener("mousemove", function (event) {
    if (document.pointerLockElement !== renderer.domElement) return;
    if (hook.overview) { orbit += event.movementX * 0.005; return; }
    player.yaw += event.movementX * 0.0025;
    player.pitch = Math.max(-1.2, Math.min(1.2, player.pitch - event.movementY * 0.0025));
  });
  window.addEventListener("resize", function () {
    camera.aspect = window.innerWidth / window.innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(window.innerWidth, window.innerHeight);
    render();
  });

  // ---------- loop ----------
  var last = null, spare = 0;
  function frame(now) {
    if (last !== null) {
      var elapsed = Math.min((now - last) / 1000, 0.25);   // a long frame is walked in small steps
      spare += elapsed;
      var steps = Math.floor(spare / STEP);
      spare -= steps * STEP;
      for (var n = 0; n < steps; n++) stepPlayer(held, STEP);
    }
    last = now;
    var t0 = performance.now();
    render();
    hook.frameMs = performance.now() - t0;
    if (!hook.ready) { hook.ready = true; hook.firstFrameMs = performance.now(); }
    requestAnimationFrame(frame);
  }
  start();
  if (/overview/.test(location.hash)) hook.overview = true;
  if (/trail/.test(location.hash)) setTrail(true);
  requestAnimationFrame(frame);
})();
