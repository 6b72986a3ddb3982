/* laby3d serve: the teacher page. The token comes from the address's #token=… (never sent to
   the server as part of the address), is then taken out of the address bar and kept for this tab
   only, and goes in an Authorization header with every request: thumbnails, downloads and the
   QR code are fetched with it and shown from blobs. */
(function () {
  "use strict";
  var F = window.laby3dForm, el = F.el;
  var config = JSON.parse(document.getElementById("laby3d-config").textContent);
  var text = config.text;
  var general = document.getElementById("general-error");
  var hook = (window.laby3dTeacher = { ready: false, pupils: [], totals: null, updating: 0, invalid: [] });
  var fragment = new URLSearchParams(location.hash.slice(1)).get("token");
  var token = fragment || sessionStorage.getItem("laby3d-token") || "";
  if (fragment) {
    sessionStorage.setItem("laby3d-token", fragment);
    history.replaceState(null, "", location.pathname);  /* the token leaves the address bar */
  }
  var lockFields = {}, lockBoxes = {}, thumbs = {};
  var JSON_HEADERS = { "Content-Type": "application/json" };

  async function call(path, options) {
    options = options || {};
    options.headers = Object.assign({ Authorization: "Bearer " + token }, options.headers || {});
    var response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      throw new Error(text.offline);
    }
    if (response.status === 401) {
      document.getElementById("token-form").hidden = false;
      general.textContent = await messageOf(response);
      throw new Error("token");
    }
    return response;
  }

  async function messageOf(response) {
    try {
      var data = await response.clone().json();
      return data.errors && data.errors.length ? data.errors[0].message : "";
    } catch (error) {
      return text.not_json + " (" + response.status + " " + response.statusText + ")";
    }
  }

  function cell(value) { return el("td", { text: value === null || value === undefined ? "" : String(value) }); }

  /* A time of the class list (Unix seconds) as the class's language writes it: "lun. 14:32". */
  function when(seconds) {
    if (!seconds) return text.never;
    return new Date(seconds * 1000).toLocaleString(config.lang, { weekday: "short", hour: "2-digit", minute: "2-digit" });
  }

  /* Who is rendering: "1 rendering · 3 waiting · 37 in the last minute" (the parts that are not 0). */
  function renders(r) {
    var parts = [];
    if (r && r.running) parts.push(r.running + " " + text.rendering);
    if (r && r.waiting) parts.push(r.waiting + " " + text.waiting);
    if (r && r.recent) parts.push(r.recent + " " + text.last_minute);
    return parts.join(" · ");
  }

  /* A thumbnail (fetched with the token) once per saved change. */
  function thumbnail(p) {
    var img = el("img", { className: "thumb", alt: "" });
    var id = p.key + "@" + p.updated;
    if (thumbs[id]) { img.src = thumbs[id]; return img; }
    if (!p.design) return img;
    call("/api/preview/" + encodeURIComponent(p.key) + ".svg").then(async function (response) {
      if (!response.ok) return;
      thumbs[id] = URL.createObjectURL(await response.blob());
      img.src = thumbs[id];
    }).catch(function () {});
    return img;
  }

  async function saveFile(path, name, stateBox) {
    stateBox.textContent = text.working;
    var response = await call(path);
    if (!response.ok) { stateBox.textContent = await messageOf(response); return; }
    var left = response.headers.get("X-Laby3d-Left-Out");
    var url = URL.createObjectURL(await response.blob());
    var link = el("a", { href: url, download: name });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    stateBox.textContent = "✓" + (left ? " · " + left + " " + text.left_out : "");
  }

  async function refresh() {
    var data = await (await call("/api/teacher/pupils")).json();
    var info = document.getElementById("join-info");
    info.textContent = text.join_at + " " + (data.address || location.origin + "/") + (data.code ? " " + text.with_code + " " + data.code : "");
    var head = document.querySelector("#pupils thead"), body = document.querySelector("#pupils tbody");
    head.textContent = "";
    var titles = ["", text.col_name, text.col_pin, text.status, text.size, text.col_printer, text.time, text.filament,
      text.col_seed, text.col_changed, text.col_saved, text.col_renders, ""];
    head.appendChild(el("tr", {}, titles.map(function (h) { return el("th", { text: h }); })));
    body.textContent = "";
    data.pupils.forEach(function (p) {
      var s = p.summary || {}, texts = s.texts || {};  /* figures worded by the server (laby3d.serve.wording) */
      var actions = el("td", {});
      if (p.design) {
        var stl = el("button", { type: "button", text: "STL" });
        stl.addEventListener("click", function () {
          saveFile("/api/download/" + encodeURIComponent(p.key) + ".stl", p.key + ".stl", document.getElementById("class-state")).catch(function (e) { general.textContent = e.message; });
        });
        actions.appendChild(stl);
      }
      if (p.connected || (p.renders && (p.renders.running || p.renders.waiting))) {
        var reset = el("button", { type: "button", className: "reset", text: text.reset });
        reset.addEventListener("click", async function () {
          await call("/api/teacher/pupils/" + encodeURIComponent(p.key) + "/reset", { method: "POST", headers: JSON_HEADERS, body: "{}" });
          refresh();
        });
        actions.appendChild(reset);
      }
      var remove = el("button", { type: "button", className: "remove", text: text.remove });
      remove.addEventListener("click", async function () {
        await call("/api/teacher/pupils/" + encodeURIComponent(p.key), { method: "DELETE", headers: JSON_HEADERS, body: "{}" });
        refresh();
      });
      actions.appendChild(remove);
      var name = p.name + (p.connected ? " · " + text.connected : "");
      var row = el("tr", { "data-key": p.key }, [
        el("td", {}, [thumbnail(p)]), cell(name), cell(p.pin), cell(p.status_text + (p.draft ? " · " + text.draft : "")),
        cell(texts.size), cell(s.printer ? s.printer + (s.fits ? " ✓" : " ✗") : ""),
        cell(texts.time), cell(texts.filament),
        cell(p.design ? p.design.seed : ""), cell(when(p.changed)), cell(when(p.saved)), cell(renders(p.renders)), actions,
      ]);
      row.className = p.status === "ok" ? "ok" : "warn";
      body.appendChild(row);
    });
    hook.pupils = data.pupils.map(function (p) { return p.name; });
    hook.rows = data.pupils;
    hook.totals = data.totals;
    hook.updating = data.updating;
    var line = data.totals_text;  /* the batch's totals, worded by the server */
    if (data.updating) line += " (" + data.updating + " " + text.updating + "…)";
    document.getElementById("totals").textContent = line;
  }

  async function qrCode() {
    var response = await call("/api/teacher/qr.svg");
    if (!response.ok) return;
    var img = document.getElementById("qr");
    img.src = URL.createObjectURL(await response.blob());
    img.hidden = false;
  }

  async function locks() {
    var options = await (await fetch("/api/options?sections=all")).json();
    var form = document.getElementById("locks");
    lockFields = F.buildForm(form, options.fields, text.more);
    var defaults = F.flatten(options.defaults);
    Object.keys(lockFields).forEach(function (path) {
      var f = lockFields[path], box = el("input", { type: "checkbox", className: "lock-box", title: text.locks });
      if (path in defaults) f.set(defaults[path]);
      if (path in options.locks) { f.set(options.locks[path]); box.checked = true; }
      f.row.insertBefore(box, f.row.firstChild);
      lockBoxes[path] = box;
    });
  }

  async function saveLocks(confirm) {
    var wanted = {};
    Object.keys(lockBoxes).forEach(function (path) {
      if (lockBoxes[path].checked) wanted[path] = lockFields[path].get();
    });
    var check = document.getElementById("lock-check");
    check.textContent = "";
    var response = await call("/api/teacher/locks", {
      method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ locks: wanted, confirm: confirm === true }),
    });
    var data = await response.json();
    hook.invalid = data.invalid || [];
    if (response.status === 409) {
      /* the lock would make these pupils' designs invalid: name them, and let the teacher confirm */
      var list = el("ul", {}, data.invalid.map(function (row) { return el("li", { text: row.name + ": " + row.error }); }));
      var again = el("button", { type: "button", id: "confirm-locks", text: text.confirm_lock });
      again.addEventListener("click", function () { saveLocks(true); });
      check.appendChild(el("p", { text: text.would_invalidate }));
      check.appendChild(list);
      check.appendChild(again);
      document.getElementById("locks-state").textContent = "";
      return;
    }
    F.showErrors(lockFields, response.ok ? [] : data.errors, general);
    document.getElementById("locks-state").textContent = response.ok ? "✓" : "";
    if (response.ok) refresh();
  }

  document.getElementById("token-form").addEventListener("submit", function (e) {
    e.preventDefault();
    token = document.getElementById("token").value.trim();
    sessionStorage.setItem("laby3d-token", token);
    document.getElementById("token-form").hidden = true;
    general.textContent = "";
    refresh().then(qrCode).catch(function () {});
  });
  document.getElementById("save-locks").addEventListener("click", function () { saveLocks(false).catch(function (e) { general.textContent = e.message; }); });
  var classState = document.getElementById("class-state");
  document.getElementById("class-zip").addEventListener("click", function () { saveFile("/api/teacher/class.zip", "class.zip", classState).catch(function (e) { classState.textContent = e.message; }); });
  document.getElementById("class-yaml").addEventListener("click", function () { saveFile("/api/teacher/class.yaml", "class.yaml", classState).catch(function (e) { classState.textContent = e.message; }); });

  (async function () {
    await locks();
    if (!token) document.getElementById("token-form").hidden = false;
    else {
      try { await refresh(); await qrCode(); } catch (e) { if (e.message !== "token") general.textContent = e.message; }
    }
    setInterval(function () {
      if (token) refresh().then(function () { general.textContent = ""; }).catch(function (e) { if (e.message !== "token") general.textContent = e.message; });
    }, 5000);
    hook.ready = true;
  })();
})();
