/* laby3d walk-through: keyboard, mouse, touch and pen, turned into what the walker does.
 * Walking keys are read by position (event.code), so W A S D is Z Q S D on AZERTY; the map's
 * zoom keys by the character they type (event.key: + and - are in different places on AZERTY
 * and QWERTZ); Ctrl, Alt and Meta shortcuts are left to the browser; a held key toggles once;
 * every key is let go when the page loses focus or is hidden. Pointer events, so a pen works
 * like a finger. An input counts from the moment the event happened (event.timeStamp), not from
 * when a slow page gets round to it, so a key held 0.3 s turns 0.3 s worth at any frame rate.
 * Adds LABY3D_WALK.inputOf(codes) and LABY3D_WALK.controls(page) -> {input, keyTimes}, where page
 * gives: canvas, stick (element), mapShown(), allowed(action), settle(time) (walk up to that
 * time, ms on the performance.now() clock, with the input held until then), pause(), touched()
 * (a finger or pen was seen), act(action), look(dx, dy, radiansPerPixel, time), pan(dx, dy) and
 * zoom(x, y, factor) in CSS pixels.
 */
(function () {
  "use strict";
  var MOVES = {
    KeyW: ["forward", 1], ArrowUp: ["forward", 1], KeyS: ["forward", -1], ArrowDown: ["forward", -1],
    KeyA: ["strafe", -1], KeyD: ["strafe", 1],
    ArrowLeft: ["turn", -1], KeyQ: ["turn", -1], ArrowRight: ["turn", 1], KeyE: ["turn", 1]
  };
  var ACTION_KEYS = { KeyO: "overview", KeyL: "trail", KeyI: "hint", KeyR: "restart", KeyH: "help", KeyP: "where" };
  var ZOOM_KEYS = { "+": 1 / 1.25, "=": 1 / 1.25, "-": 1.25, "_": 1.25 };   // by event.key
  var MOUSE_LOOK = 0.0025, DRAG_LOOK = 0.006;   // radians per pixel
  var TAP_PX = 6, DEAD_ZONE = 0.15;               // a tap moves less; the stick ignores its centre

  function clamp(v) { return Math.max(-1, Math.min(1, v)); }
  // {forward, strafe, turn} in -1..1 from the key codes held ({code: true})
  function inputOf(codes) {
    var input = { forward: 0, strafe: 0, turn: 0 };
    Object.keys(codes).forEach(function (code) {
      if (codes[code] && MOVES[code]) input[MOVES[code][0]] += MOVES[code][1];
    });
    ["forward", "strafe", "turn"].forEach(function (k) { input[k] = clamp(input[k]); });
    return input;
  }

  function controls(page) {
    var canvas = page.canvas, held = {}, stick = { forward: 0, turn: 0 }, keyTimes = {};
    function input() {
      var result = inputOf(held);
      result.forward = clamp(result.forward + stick.forward);
      result.turn = clamp(result.turn + stick.turn);
      return result;
    }
    function releaseAll(event) { page.settle(event.timeStamp); held = {}; stick.forward = stick.turn = 0; }

    // ---------- keys ----------
    window.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.altKey || event.metaKey) return;     // the browser's shortcuts, not ours
      if (MOVES[event.code]) {
        event.preventDefault();                                       // arrows would scroll
        if (!held[event.code]) {
          page.settle(event.timeStamp);
          held[event.code] = true;
          keyTimes[event.code] = [event.timeStamp, null];
        }
        return;
      }
      if (event.repeat) return;                                       // a held key toggles once
      var action = ACTION_KEYS[event.code], zoom = ZOOM_KEYS[event.key];
      if (action && page.allowed(action)) { event.preventDefault(); page.act(action); }
      else if (zoom && page.mapShown()) page.zoom(document.documentElement.clientWidth / 2, document.documentElement.clientHeight / 2, zoom);
    });
    window.addEventListener("keyup", function (event) {
      if (!held[event.code]) return;
      page.settle(event.timeStamp);
      held[event.code] = false;
      if (keyTimes[event.code]) keyTimes[event.code][1] = event.timeStamp;
    });
    window.addEventListener("blur", releaseAll);
    document.addEventListener("visibilitychange", function (event) { releaseAll(event); page.pause(); });

    // ---------- mouse with the pointer locked (desktop) ----------
    function lockPointer() {               // a quick click after Esc is refused: say nothing
      try {
        var promise = canvas.requestPointerLock && canvas.requestPointerLock();
        if (promise && promise.catch) promise.catch(function () {});
      } catch (err) { /* refused: a drag still looks around */ }
    }
    document.addEventListener("pointerlockerror", function () {});
    document.addEventListener("mousemove", function (event) {
      if (document.pointerLockElement !== canvas || page.mapShown()) return;
      page.look(event.movementX, event.movementY, MOUSE_LOOK, event.timeStamp);
    });

    // ---------- pointers on the canvas: tap, drag (look, or pan the map), two fingers (pinch) ----------
    var pointers = {};
    function pointerList() { return Object.keys(pointers).map(function (id) { return pointers[id]; }); }
    function spread(list) { return Math.hypot(list[0].x - list[1].x, list[0].y - list[1].y); }
    canvas.addEventListener("pointerdown", function (event) {
      if (event.pointerType !== "mouse") showStick();
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY, startX: event.clientX, startY: event.clientY };
      try { canvas.setPointerCapture(event.pointerId); } catch (err) { /* already gone */ }
    });
    canvas.addEventListener("pointermove", function (event) {
      var p = pointers[event.pointerId];
      if (!p || document.pointerLockElement === canvas) return;
      var list = pointerList(), dx = event.clientX - p.x, dy = event.clientY - p.y;
      if (page.mapShown() && list.length >= 2) {
        var before = spread(list);
        p.x = event.clientX; p.y = event.clientY;
        var after = spread(list);
        var middle = [(list[0].x + list[1].x) / 2, (list[0].y + list[1].y) / 2];
        if (before > 0 && after > 0) page.zoom(middle[0], middle[1], before / after);
        return;
      }
      p.x = event.clientX; p.y = event.clientY;
      if (page.mapShown()) page.pan(dx, dy);
      else page.look(dx, dy, DRAG_LOOK, event.timeStamp);
    });
    function pointerUp(event) {
      var p = pointers[event.pointerId];
      delete pointers[event.pointerId];
      if (!p || event.type === "pointercancel") return;
      var tap = Math.hypot(event.clientX - p.startX, event.clientY - p.startY) < TAP_PX;
      if (tap && event.pointerType === "mouse" && !page.mapShown()) lockPointer();
    }
    canvas.addEventListener("contextmenu", function (event) { event.preventDefault(); });   // a long press looks
    canvas.addEventListener("pointerup", pointerUp);
    canvas.addEventListener("pointercancel", pointerUp);
    canvas.addEventListener("wheel", function (event) {
      if (!page.mapShown()) return;
      event.preventDefault();
      page.zoom(event.clientX, event.clientY, Math.pow(1.0015, event.deltaY));
    }, { passive: false });

    // ---------- the virtual stick (touch and pen): up walks, down backs off, sideways turns ----------
    var base = page.stick, knob = base.firstElementChild, stickPointer = null;
    function showStick() { base.style.display = "block"; page.touched(); }
    var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    if (navigator.maxTouchPoints > 0 || coarse) showStick();
    function moveStick(event) {
      var box = base.getBoundingClientRect(), radius = box.width / 2;
      var dx = event.clientX - (box.left + radius), dy = event.clientY - (box.top + radius);
      var length = Math.hypot(dx, dy), scale = length > radius ? radius / length : 1;
      dx *= scale; dy *= scale;
      page.settle(event.timeStamp);
      stick.forward = Math.abs(dy) < DEAD_ZONE * radius ? 0 : -dy / radius;
      stick.turn = Math.abs(dx) < DEAD_ZONE * radius ? 0 : dx / radius;
      knob.style.transform = "translate(" + dx + "px," + dy + "px)";
    }
    base.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      stickPointer = event.pointerId;
      try { base.setPointerCapture(event.pointerId); } catch (err) { /* already gone */ }
      moveStick(event);
    });
    base.addEventListener("pointermove", function (event) { if (event.pointerId === stickPointer) moveStick(event); });
    function stickUp(event) {
      if (event.pointerId !== stickPointer) return;
      page.settle(event.timeStamp);
      stickPointer = null; stick.forward = stick.turn = 0;
      knob.style.transform = "";
    }
    base.addEventListener("pointerup", stickUp);
    base.addEventListener("pointercancel", stickUp);

    return { input: input, keyTimes: keyTimes };
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.inputOf = inputOf;
  window.LABY3D_WALK.controls = controls;
})();
