/* laby3d serve: the pupil page. The pupil joins with their name (and the class code; and their
   personal code when the name is in the class already); the form comes from /api/options; each
   change (debounced) asks /api/preview for the 2D picture and the report, then loads the solid's
   GLB for the 3D view; answers to older requests are dropped. Every valid preview is kept by the
   server as the pupil's draft (shown again on reload); the page says whether what the form shows
   is saved, kept as a draft, or not kept yet, and asks before leaving with changes not kept.
   Save and downloads go through /api/pupils/{key}. An outline image is sent to /api/upload (its
   bytes in base64, in a JSON write like every other) and the field then holds its reference. Every failure is said in words where errors
   go; a busy server (429/503) or an unreachable one is tried again by itself. The locks are
   polled every 4 s, so a teacher's lock reaches the page within 5 s. */
(function () {
  "use strict";
  var F = window.laby3dForm, el = F.el;
  var config = JSON.parse(document.getElementById("laby3d-config").textContent);
  var text = config.text;
  var state = { seq: 0, timer: null, fields: {}, initial: {}, locks: {}, locksVersion: null, svgUrl: null, me: null, kept: null, saved: null, asking: 0 };
  var hook = (window.laby3dServe = { ready: false, joined: false, previews: 0, models: 0, triangles: 0, seed: null, errors: 0, retries: 0, saveState: null });
  var viewer = new window.Laby3dViewer(document.getElementById("preview3d"));
  var general = document.getElementById("general-error");
  var JSON_HEADERS = { "Content-Type": "application/json" };

  function say(message) { general.textContent = message; }
  function sleep(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

  /* fetch, tried again while the server is busy (429, 503: after its Retry-After) or cannot be
     reached; the words go where errors go meanwhile. A 401 means the session ended. */
  async function api(path, options) {
    for (var attempt = 0; ; attempt++) {
      var response;
      try {
        response = await fetch(path, options);
      } catch (error) {
        if (attempt >= 20) throw new Error(text.offline);
        say(text.offline);
        hook.retries += 1;
        await sleep(2000);
        continue;
      }
      if ((response.status === 429 || response.status === 503) && attempt < 20) {
        var seconds = Math.max(0.3, Number(response.headers.get("Retry-After")) || 1);
        say(await messageOf(response) || text.busy);
        hook.retries += 1;
        await sleep(seconds * 1000);
        continue;
      }
      if (response.status === 401 && state.me) sessionEnded();
      return response;
    }
  }

  /* The first error message of a JSON refusal, or the status in words. */
  async function messageOf(response) {
    try {
      var data = await response.clone().json();
      return data.errors && data.errors.length ? data.errors[0].message : "";
    } catch (error) {
      return text.not_json + " (" + response.status + " " + response.statusText + ")";
    }
  }

  async function jsonOf(response) {
    try { return await response.json(); } catch (error) {
      return { errors: [{ field: null, message: text.not_json + " (" + response.status + " " + response.statusText + ")" }] };
    }
  }

  function values() {
    var out = {};
    Object.keys(state.fields).forEach(function (path) {
      if (path in state.locks || path === "label") return;
      var value = state.fields[path].get();
      if (value !== null && (path === "seed" || value !== state.initial[path])) out[path] = value;
    });
    return out;
  }

  /* A design as text with its keys in order, so that two equal designs compare equal. */
  function canonical(design) {
    var sorted = {};
    Object.keys(design || {}).sort().forEach(function (key) { sorted[key] = design[key]; });
    return JSON.stringify(sorted);
  }

  /* What the form shows: saved ("Saved ✓"), kept as the draft, or not kept yet. */
  function showSaveState() {
    if (!state.me) return;
    var now = canonical(values());
    var kind = now === state.saved ? "saved" : (now === state.kept && !state.timer && !state.asking ? "kept" : "unsaved");
    var words = { saved: text.saved + " ✓", kept: text.draft_kept, unsaved: text.not_saved };
    document.getElementById("save-state").textContent = words[kind];
    hook.saveState = kind;
  }

  function schedule() {
    clearTimeout(state.timer);
    state.timer = setTimeout(function () { state.timer = null; previewOrSay(); }, 150);
    showSaveState();
  }

  function previewOrSay() { return preview().catch(function (error) { say(error.message); }); }

  async function preview() {
    if (!state.me) return;
    var mine = ++state.seq, sent = values();
    state.asking += 1;
    try {
      var response = await api("/api/preview", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ options: sent }) });
      var data = await jsonOf(response);
    } finally {
      state.asking -= 1;
    }
    if (response.ok && data.kept) state.kept = canonical(Object.assign({}, sent, { seed: data.seed }));
    if (mine !== state.seq) { showSaveState(); return; }
    if (!response.ok) {
      hook.errors += 1;
      F.showErrors(state.fields, data.errors, general);
      showSaveState();
      return;
    }
    F.showErrors(state.fields, [], general);
    if (state.fields.seed.get() === null) state.fields.seed.set(data.seed);
    hook.seed = data.seed;
    showSaveState();
    if (state.svgUrl) URL.revokeObjectURL(state.svgUrl);
    state.svgUrl = URL.createObjectURL(new Blob([data.svg], { type: "image/svg+xml" }));
    document.getElementById("preview2d").src = state.svgUrl;
    hook.svg = data.svg;
    showReport(data.summary);
    hook.previews += 1;
    var model = await api(data.model);
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
    var sent = values();
    var response = await api("/api/pupils/" + encodeURIComponent(state.me.key), {
      method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ options: sent }),
    });
    var data = await jsonOf(response);
    if (!response.ok) {
      F.showErrors(state.fields, data.errors, general);
      return null;
    }
    state.saved = state.kept = canonical(data.saved_design);
    if (state.fields.seed.get() === null && data.saved_design) state.fields.seed.set(data.saved_design.seed);
    showSaveState();
    return data;
  }

  async function download(fmt) {
    var stateBox = document.getElementById("download-state");
    var saved = await save();
    if (!saved) return;
    stateBox.textContent = text.working;
    var response = await api(saved.downloads[fmt]);
    if (!response.ok) { stateBox.textContent = await messageOf(response); return; }
    var url = URL.createObjectURL(await response.blob());
    var link = el("a", { href: url, download: saved.file + "." + fmt });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    stateBox.textContent = "✓";
  }

  function downloadButtons(formats, classFormats) {
    var box = document.getElementById("downloads");
    var others = el("details", { className: "more" }, [el("summary", { text: text.other_formats })]);
    formats.forEach(function (fmt) {
      var button = el("button", { type: "button", "data-format": fmt.name, title: fmt.description, text: fmt.caption });
      button.addEventListener("click", function () { download(fmt.name).catch(function (e) { say(e.message); }); });
      (classFormats.indexOf(fmt.name) >= 0 ? box : others).appendChild(button);
    });
    box.appendChild(others);
  }

  /* The outline field's button: the pupil's own image, checked and stored by the server, whose
     reference (upload:….png) the field then holds. */
  function uploadButton(f) {
    if (!f || !f.spec.upload) return;
    var picker = el("input", { type: "file", id: "outline-file", accept: f.spec.upload.accept, hidden: "" });
    var button = el("button", { type: "button", id: "outline-upload", text: text.upload });
    var chosen = el("span", { className: "upload-name", id: "outline-upload-name" });
    button.addEventListener("click", function () { picker.click(); });
    picker.addEventListener("change", function () {
      var file = picker.files[0];
      picker.value = "";
      if (file) sendOutline(f, file, chosen).catch(function (e) { chosen.textContent = ""; say(e.message); });
    });
    f.row.insertBefore(button, f.error);
    f.row.insertBefore(chosen, f.error);
    f.row.appendChild(picker);
  }

  async function sendOutline(f, file, chosen) {
    if (file.size > f.spec.upload.max_bytes) {
      F.showErrors(state.fields, [{ field: f.spec.path, message: text.upload_too_big }], general);
      return;
    }
    chosen.textContent = text.uploading;
    var bytes = new Uint8Array(await file.arrayBuffer()), binary = "";
    for (var i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    var response = await api("/api/upload", {
      method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ name: file.name, data: btoa(binary) }),
    });
    var data = await jsonOf(response);
    if (!response.ok) {
      chosen.textContent = "";
      hook.errors += 1;
      F.showErrors(state.fields, data.errors, general);
      return;
    }
    chosen.textContent = data.name + " ✓";
    hook.uploads = (hook.uploads || 0) + 1;
    f.set(data.outline);
    schedule();
  }

  /* The teacher's locks on the form: locked fields show the class's value and cannot change. */
  function applyLocks(locks, version) {
    Object.keys(state.locks).forEach(function (path) {
      var f = state.fields[path];
      if (!f || path in locks || path === "label") return;
      f.input.disabled = false;
      if (path !== "seed") f.row.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
      f.row.classList.remove("locked");
      var note = f.row.querySelector(".lock");
      if (note) note.remove();
    });
    Object.keys(locks).forEach(function (path) {
      var f = state.fields[path];
      if (!f) return;
      f.set(locks[path]);
      f.input.disabled = true;
      if (path !== "seed") f.row.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      f.row.classList.add("locked");
      if (!f.row.querySelector(".lock")) f.row.appendChild(el("small", { className: "lock", text: "🔒 " + text.locked }));
    });
    state.locks = locks;
    state.locksVersion = version;
    hook.locksVersion = version;
    var reroll = document.getElementById("reroll");
    if (reroll) reroll.disabled = "seed" in locks;
  }

  async function pollLocks() {
    try {
      var response = await fetch("/api/locks");
      if (!response.ok) return;
      var data = await response.json();
      if (data.version !== state.locksVersion) {
        applyLocks(data.locks, data.version);
        if (state.me) { say(text.locks_changed); schedule(); }
      }
    } catch (error) { /* the next poll, or the next preview, says it */ }
  }

  function showDesign(design) {
    Object.keys(state.fields).forEach(function (path) { state.fields[path].set(state.initial[path]); });
    state.fields.seed.set(null);
    Object.keys(design || {}).forEach(function (path) {
      if (state.fields[path] && !(path in state.locks)) state.fields[path].set(design[path]);
    });
    applyLocks(state.locks, state.locksVersion);
    var label = state.fields.label;
    if (label) {
      label.set(state.me.name);
      label.input.disabled = true;
      label.row.classList.add("locked");
      if (!label.row.querySelector(".lock")) label.row.appendChild(el("small", { className: "lock", text: text.engraved }));
    }
  }

  function joined(me) {
    state.me = me;
    hook.joined = true;
    hook.key = me.key;
    document.getElementById("join").hidden = true;
    document.getElementById("who").hidden = false;
    document.getElementById("who-name").textContent = me.name;
    document.getElementById("who-pin").textContent = me.pin ? "· " + text.your_pin + " " + me.pin : "";
    document.getElementById("design").hidden = false;
    say("");
    showDesign(me.design);
    state.kept = me.design ? canonical(me.design) : null;
    state.saved = me.saved_design ? canonical(me.saved_design) : null;
    showSaveState();
  }

  function sessionEnded() {
    state.me = null;
    hook.joined = false;
    document.getElementById("design").hidden = true;
    document.getElementById("who").hidden = true;
    document.getElementById("join").hidden = false;
    say(text.session_ended);
  }

  async function join(event) {
    event.preventDefault();
    var nameError = document.getElementById("name-error"), codeError = document.getElementById("code-error");
    var pinError = document.getElementById("pin-error");
    nameError.textContent = codeError.textContent = pinError.textContent = "";
    var name = document.getElementById("name").value.trim();
    if (!name) { nameError.textContent = text.need_name; return; }
    var code = document.getElementById("code"), pin = document.getElementById("pin");
    var body = { name: name, code: code ? code.value.trim() : null, pin: pin.value.trim() || null };
    var response = await api("/api/join", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
    var data = await jsonOf(response);
    if (!response.ok) {
      (data.errors || []).forEach(function (e) {
        if (e.field === "code") codeError.textContent = e.message;
        else if (e.field === "pin") {
          document.getElementById("pin-row").hidden = false;  /* the name is in the class: their code, or another name */
          pinError.textContent = e.message;
        } else nameError.textContent = e.message;
      });
      return;
    }
    joined(data);
    await previewOrSay();
  }

  async function leave() {
    await api("/api/leave", { method: "POST", headers: JSON_HEADERS, body: "{}" });
    state.me = null;  /* leaving on purpose: no question before the page goes */
    location.replace("/");  /* a clean page for the next pupil: nothing of this one stays */
  }

  async function start() {
    var fragment = new URLSearchParams(location.hash.slice(1));
    if (fragment.get("code") && document.getElementById("code")) {
      document.getElementById("code").value = fragment.get("code");
      history.replaceState(null, "", location.pathname);
    }
    var options = await jsonOf(await api("/api/options"));
    var form = document.getElementById("form");
    state.fields = F.buildForm(form, options.fields, text.more);
    var defaults = F.flatten(options.defaults);
    Object.keys(state.fields).forEach(function (path) {
      if (path in defaults) state.fields[path].set(defaults[path]);
      state.initial[path] = state.fields[path].get();
    });
    var seed = state.fields.seed;
    seed.set(null);
    var reroll = el("button", { type: "button", id: "reroll", text: text.reroll });
    reroll.addEventListener("click", function () {
      seed.set(crypto.getRandomValues(new Uint32Array(1))[0]);
      schedule();
    });
    seed.row.insertBefore(reroll, seed.error);
    uploadButton(state.fields["maze.outline"]);
    applyLocks(options.locks, options.locks_version);
    downloadButtons(options.formats, options.class_formats);
    form.addEventListener("input", schedule);
    form.addEventListener("change", schedule);
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    document.getElementById("save").addEventListener("click", function () { save().catch(function (e) { say(e.message); }); });
    document.getElementById("join").addEventListener("submit", function (e) { join(e).catch(function (er) { say(er.message); }); });
    document.getElementById("leave").addEventListener("click", function () { leave().catch(function (e) { say(e.message); }); });
    setInterval(pollLocks, 4000);
    /* Changes the server has not kept (a preview on its way, or refused): ask before leaving. */
    window.addEventListener("beforeunload", function (event) {
      if (!state.me || (canonical(values()) === state.kept && !state.timer && !state.asking)) return;
      event.preventDefault();
      event.returnValue = "";
    });
    var me = await jsonOf(await api("/api/me"));
    if (me.joined) {
      joined(me);
      await previewOrSay();
    }
    hook.ready = true;
  }

  start().catch(function (error) { say(error.message); });
})();
