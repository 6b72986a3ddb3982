/* laby3d serve: the pupil page. The form comes from /api/options; each change (debounced) asks
   /api/preview for the 2D picture and the report, then loads the solid's GLB for the 3D view;
   answers to older requests are dropped. Save and downloads go through /api/pupils/{name}. */
(function () {
  "use strict";
  var F = window.laby3dForm, el = F.el;
  var config = JSON.parse(document.getElementById("laby3d-config").textContent);
  var text = config.text;
  var state = { seq: 0, timer: null, fields: {}, initial: {}, locks: {}, svgUrl: null };
  var hook = (window.laby3dServe = { ready: false, previews: 0, models: 0, triangles: 0, seed: null, errors: 0 });
  var viewer = new window.Laby3dViewer(document.getElementById("preview3d"));
  var general = document.getElementById("general-error");

  function values() {
    var out = {};
    Object.keys(state.fields).forEach(function (path) {
      if (path in state.locks) return;
      var value = state.fields[path].get();
      if (value !== null && (path === "seed" || value !== state.initial[path])) out[path] = value;
    });
    return out;
  }

  function schedule() {
    document.getElementById("save-state").textContent = "";
    clearTimeout(state.timer);
    state.timer = setTimeout(previewOrSay, 150);
  }

  /* A preview, or the reason there is none (e.g. the server stopped) where errors go. */
  function previewOrSay() {
    return preview().catch(say);
  }

  function say(error) { general.textContent = String(error); }

  function retryAfter(response) {
    return Math.max(0.3, Number(response.headers.get("Retry-After")) || 0.5) * 1000;
  }

  async function preview() {
    var mine = ++state.seq;
    var response = await fetch("/api/preview", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ options: values() }),
    });
    if (mine !== state.seq) return;
    if (response.status === 429 || response.status === 503) {
      general.textContent = text.busy;
      state.timer = setTimeout(previewOrSay, retryAfter(response));
      return;
    }
    var data = await response.json();
    if (mine !== state.seq) return;
    if (!response.ok) {
      hook.errors += 1;
      F.showErrors(state.fields, data.errors, general);
      return;
    }
    F.showErrors(state.fields, [], general);
    if (state.fields.seed.get() === null) state.fields.seed.set(data.seed);
    hook.seed = data.seed;
    if (state.svgUrl) URL.revokeObjectURL(state.svgUrl);
    state.svgUrl = URL.createObjectURL(new Blob([data.svg], { type: "image/svg+xml" }));
    document.getElementById("preview2d").src = state.svgUrl;
    hook.svg = data.svg;
    showReport(data.summary);
    hook.previews += 1;
    var model = await fetch(data.model);
    if (mine !== state.seq || !model.ok) return;
    var buffer = await model.arrayBuffer();
    if (mine !== state.seq) return;
    viewer.show(buffer);
    hook.shownAt = performance.now();
    hook.models = viewer.models;
    hook.triangles = viewer.triangles;
  }

  function showReport(summary) {
    var box = document.getElementById("report");
    box.textContent = "";
    /* Rows (label, value) written by the server in the class's language (laby3d.serve.wording). */
    summary.rows.forEach(function (r) { box.appendChild(el("p", {}, [el("b", { text: r[0] + " " }), el("span", { text: r[1] })])); });
    var list = el("ul", { className: "warnings" });
    summary.warnings.forEach(function (w) { list.appendChild(el("li", { text: w })); });
    box.appendChild(list);
    box.className = summary.ok ? "ok" : "warn";
  }

  async function save() {
    var name = document.getElementById("name").value.trim();
    var nameError = document.getElementById("name-error");
    nameError.textContent = name ? "" : text.need_name;
    if (!name) return null;
    var response = await fetch("/api/pupils/" + encodeURIComponent(name), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ options: values() }),
    });
    var data = await response.json();
    if (!response.ok) {
      var errors = data.errors || [];
      errors.forEach(function (e) { if (e.field === "name") nameError.textContent = e.message; });
      F.showErrors(state.fields, errors.filter(function (e) { return e.field !== "name"; }), general);
      return null;
    }
    localStorage.setItem("laby3d-name", name);
    document.getElementById("save-state").textContent = text.saved + " ✓";
    return data;
  }

  async function download(fmt) {
    var saved = await save();
    if (!saved) return;
    var link = el("a", { href: saved.downloads[fmt], download: saved.key + "." + fmt });
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  function downloadButtons(formats, classFormats) {
    var box = document.getElementById("downloads");
    var others = el("details", { className: "more" }, [el("summary", { text: text.other_formats })]);
    formats.forEach(function (fmt) {
      var button = el("button", { type: "button", "data-format": fmt.name, title: fmt.description, text: fmt.name.toUpperCase() });
      button.addEventListener("click", function () { download(fmt.name).catch(say); });
      (classFormats.indexOf(fmt.name) >= 0 ? box : others).appendChild(button);
    });
    box.appendChild(others);
  }

  async function restore(name) {
    var response = await fetch("/api/pupils/" + encodeURIComponent(name));
    if (!response.ok) return;
    var data = await response.json();
    Object.keys(data.design).forEach(function (path) {
      if (state.fields[path] && !(path in state.locks)) state.fields[path].set(data.design[path]);
    });
  }

  async function start() {
    var options = await (await fetch("/api/options")).json();
    var form = document.getElementById("form");
    state.fields = F.buildForm(form, options.fields, text.more);
    var defaults = F.flatten(options.defaults);
    Object.keys(state.fields).forEach(function (path) {
      if (path in defaults) state.fields[path].set(defaults[path]);
      state.initial[path] = state.fields[path].get();
    });
    state.locks = options.locks;
    Object.keys(options.locks).forEach(function (path) {
      var f = state.fields[path];
      if (!f) return;
      f.set(options.locks[path]);
      f.input.disabled = true;
      f.row.classList.add("locked");
      f.row.appendChild(el("small", { className: "lock", text: "🔒 " + text.locked }));
    });
    var seed = state.fields.seed;
    seed.set(null);
    if (!("seed" in state.locks)) {
      var reroll = el("button", { type: "button", id: "reroll", text: text.reroll });
      reroll.addEventListener("click", function () {
        seed.set(crypto.getRandomValues(new Uint32Array(1))[0]);
        schedule();
      });
      seed.row.insertBefore(reroll, seed.error);
    }
    downloadButtons(options.formats, options.class_formats);
    form.addEventListener("input", schedule);
    form.addEventListener("change", schedule);
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    document.getElementById("save").addEventListener("click", function () { save().catch(say); });
    var name = localStorage.getItem("laby3d-name");
    if (name) {
      document.getElementById("name").value = name;
      await restore(name);
    }
    await previewOrSay();
    hook.ready = true;
  }

  start();
})();
