/* laby3d serve: the teacher page. The token comes from the address's #token=… (never sent to
   the server as part of the address) and goes in an Authorization header with every request. */
(function () {
  "use strict";
  var F = window.laby3dForm, el = F.el;
  var config = JSON.parse(document.getElementById("laby3d-config").textContent);
  var text = config.text;
  var general = document.getElementById("general-error");
  var hook = (window.laby3dTeacher = { ready: false, pupils: [] });
  var token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  var lockFields = {}, lockBoxes = {};

  async function call(path, options) {
    options = options || {};
    options.headers = Object.assign({ Authorization: "Bearer " + token }, options.headers || {});
    var response = await fetch(path, options);
    if (response.status === 401) {
      document.getElementById("token-form").hidden = false;
      general.textContent = (await response.json()).errors[0].message;
      throw new Error("token");
    }
    return response;
  }

  function cell(value) { return el("td", { text: value === null || value === undefined ? "" : String(value) }); }

  async function refresh() {
    var data = await (await call("/api/teacher/pupils")).json();
    var head = document.querySelector("#pupils thead"), body = document.querySelector("#pupils tbody");
    head.textContent = "";
    var titles = ["", text.col_name, text.status, text.size, text.col_printer, text.time, text.filament, text.col_seed, ""];
    head.appendChild(el("tr", {}, titles.map(function (h) { return el("th", { text: h }); })));
    body.textContent = "";
    data.pupils.forEach(function (p) {
      var s = p.summary, size = s.texts.size;
      var stl = el("a", { href: "/api/download/" + encodeURIComponent(p.key) + ".stl", text: "STL" });
      var remove = el("button", { type: "button", text: text.remove });
      remove.addEventListener("click", async function () {
        await call("/api/teacher/pupils/" + encodeURIComponent(p.key), { method: "DELETE" });
        refresh();
      });
      var thumb = el("img", { className: "thumb", alt: "", src: "/api/preview/" + encodeURIComponent(p.key) + ".svg?" + p.updated });
      var row = el("tr", { "data-key": p.key }, [
        el("td", {}, [thumb]), cell(p.name), cell(p.status), cell(size), cell(s.printer ? s.printer + (s.fits ? " ✓" : " ✗") : ""),
        cell(s.texts.time), cell(s.texts.filament), cell(p.design.seed),
        el("td", {}, [stl, remove]),
      ]);
      row.className = p.status === "ok" ? "ok" : "warn";
      body.appendChild(row);
    });
    hook.pupils = data.pupils.map(function (p) { return p.name; });
    document.getElementById("totals").textContent = data.totals;  /* worded by the server (laby3d.serve.wording) */
  }

  async function locks() {
    var options = await (await fetch("/api/options")).json();
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

  async function saveLocks() {
    var wanted = {};
    Object.keys(lockBoxes).forEach(function (path) {
      if (lockBoxes[path].checked) wanted[path] = lockFields[path].get();
    });
    var response = await call("/api/teacher/locks", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ locks: wanted }),
    });
    var data = await response.json();
    F.showErrors(lockFields, response.ok ? [] : data.errors, general);
    document.getElementById("locks-state").textContent = response.ok ? "✓" : "";
    if (response.ok) refresh();
  }

  async function fetchFile(path, name) {
    var state = document.getElementById("class-state");
    state.textContent = text.working;
    var response = await call(path);
    if (!response.ok) { state.textContent = (await response.json()).errors[0].message; return; }
    var url = URL.createObjectURL(await response.blob());
    var link = el("a", { href: url, download: name });
    document.body.appendChild(link);
    link.click();
    link.remove();
    state.textContent = "✓";
  }

  document.getElementById("token-form").addEventListener("submit", function (e) {
    e.preventDefault();
    token = document.getElementById("token").value.trim();
    location.hash = "token=" + encodeURIComponent(token);
    document.getElementById("token-form").hidden = true;
    general.textContent = "";
    refresh();
  });
  document.getElementById("save-locks").addEventListener("click", saveLocks);
  document.getElementById("class-zip").addEventListener("click", function () { fetchFile("/api/teacher/class.zip", "class.zip"); });
  document.getElementById("class-yaml").addEventListener("click", function () { fetchFile("/api/teacher/class.yaml", "class.yaml"); });

  (async function () {
    await locks();
    if (!token) document.getElementById("token-form").hidden = false;
    else { try { await refresh(); } catch (e) { /* the token form is shown */ } }
    setInterval(function () { if (token) refresh().catch(function () {}); }, 5000);
    hook.ready = true;
  })();
})();
