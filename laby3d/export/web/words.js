/* laby3d walk-through: what the page says, in its language (the texts come with the page): the
 * keys named as the pupil's keyboard labels them, the help, and where the walker is (for a
 * screen reader, on request). No three.js, no page elements.
 * Adds LABY3D_WALK.words(text) -> {say, keys, layoutKnown, readLayout(then), heading(dx, dz, yaw),
 * where(model, cell, x, z, yaw)}.
 */
(function () {
  "use strict";
  // the keys the help names, by their place on the keyboard (event.code), and what a QWERTY
  // keyboard prints on them (the help's words when the layout cannot be read)
  var NAMED = { KeyW: "W", KeyA: "A", KeyS: "S", KeyD: "D", KeyQ: "Q", KeyE: "E", KeyO: "O", KeyL: "L",
                KeyI: "I", KeyR: "R", KeyH: "H", KeyP: "P" };
  // eight directions around the walker, clockwise from straight ahead
  var HEADINGS = ["dir_ahead", "dir_ahead_right", "dir_right", "dir_behind_right", "dir_behind", "dir_behind_left",
                  "dir_left", "dir_ahead_left"];

  function words(text) {
    var keys = {}, known = { layout: false };
    Object.keys(NAMED).forEach(function (code) { keys[code] = NAMED[code]; });

    function say(key, values) {
      return text[key].replace(/\{(\w+)\}/g, function (all, name) {
        return String(values && name in values ? values[name] : keys[name]);
      });
    }
    // the labels of the pupil's keyboard (navigator.keyboard.getLayoutMap, where the browser
    // has it): then(true) once they replace the QWERTY letters, never when they cannot be read
    function readLayout(then) {
      var keyboard = navigator.keyboard;
      if (!keyboard || !keyboard.getLayoutMap) return;
      try {
        keyboard.getLayoutMap().then(function (map) {
          var found = 0;
          Object.keys(NAMED).forEach(function (code) {
            var label = map.get(code);
            if (label && label.trim()) { keys[code] = label.toUpperCase(); found += 1; }
          });
          if (found !== Object.keys(NAMED).length) return;
          known.layout = true;
          then(true);
        }, function () { /* not allowed here (a frame): the QWERTY words stay */ });
      } catch (err) { /* the same */ }
    }
    // which of the eight directions (0 ahead, clockwise) (dx, dz) is, seen looking along yaw
    // (0: -z, clockwise), and its word
    function sector(dx, dz, yaw) {
      var turn = Math.atan2(dx, -dz) - yaw;
      turn = Math.atan2(Math.sin(turn), Math.cos(turn));
      return (Math.round(turn / (Math.PI / 4)) + 8) % 8;
    }
    function heading(dx, dz, yaw) { return say(HEADINGS[sector(dx, dz, yaw)], {}); }
    // where the walker is, for a screen reader: the cell, the ways out of it (the open walls
    // and, in the exit's cell, its door) clockwise from straight ahead, as seen from where it
    // stands and looks, and how many cells there are to enter on the way to the exit
    function where(model, cell, x, z, yaw) {
      var position = model.position(cell), seen = [], steps = model.stepsOut(cell);
      var places = model.links(cell).map(function (link) { return link.middle; });
      var way = model.wayOut(cell);
      if (way.next === null && way.target) places.push(way.target);
      places.forEach(function (p) {
        var k = sector(p[0] - x, p[1] - z, yaw);
        if (seen.indexOf(k) < 0) seen.push(k);
      });
      var ways = seen.sort(function (a, b) { return a - b; }).map(function (k) { return say(HEADINGS[k], {}); });
      var parts = [say("where_position", { row: position[0] + 1, col: position[1] + 1 })];
      parts.push(say("where_open", { ways: ways.join(", ") }));
      if (steps === 0 && way.target) parts.push(say("where_exit_door", { way: heading(way.target[0] - x, way.target[1] - z, yaw) }));
      else if (steps === 0) parts.push(say("where_exit_cell", {}));
      else if (steps > 0) parts.push(say(steps === 1 ? "where_one_step" : "where_steps", { steps: steps }));
      return parts.join(" ");
    }
    return { say: say, keys: keys, layoutKnown: function () { return known.layout; }, readLayout: readLayout,
             heading: heading, where: where };
  }

  window.LABY3D_WALK = window.LABY3D_WALK || {};
  window.LABY3D_WALK.words = words;
})();
