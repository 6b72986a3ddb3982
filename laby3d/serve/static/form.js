/* laby3d serve: form fields built from the option specs of /api/options (kind, range, choices,
   default, label and help in the class's language), shared by the pupil and teacher pages. A
   choice shows its label and sends its value. Texts go in with textContent only. */
(function () {
  "use strict";

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      if (key === "text") node.textContent = props[key];
      else if (key === "className") node.className = props[key];
      else node.setAttribute(key, props[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  function fieldId(path) { return "f-" + path.replace(/\./g, "-"); }

  /* One field: {row, input, error, spec, get(), set(value)}; get() gives null when unset. */
  function field(spec) {
    var input;
    if (spec.kind === "choice") {
      input = el("select", { id: fieldId(spec.path), name: spec.path });
      if (spec.optional) input.appendChild(el("option", { value: "", text: "—" }));
      spec.choices.forEach(function (choice, i) {
        var shown = spec.choice_labels ? spec.choice_labels[i] : String(choice);
        input.appendChild(el("option", { value: String(choice), text: shown }));
      });
    } else if (spec.kind === "bool") {
      input = el("input", { id: fieldId(spec.path), name: spec.path, type: "checkbox" });
    } else if (spec.kind === "int" || spec.kind === "float") {
      input = el("input", { id: fieldId(spec.path), name: spec.path, type: "number", step: spec.kind === "int" ? "1" : "any" });
      if (spec.min !== undefined) input.min = spec.min;
      if (spec.max !== undefined) input.max = spec.max;
    } else {
      input = el("input", { id: fieldId(spec.path), name: spec.path, type: "text", maxlength: "200" });
    }
    var suggestions = null;  /* values offered as the pupil types, free text still taken (the outlines) */
    if (spec.suggestions) {
      suggestions = el("datalist", { id: fieldId(spec.path) + "-list" });
      spec.suggestions.forEach(function (s) { suggestions.appendChild(el("option", { value: s.value, label: s.label })); });
      input.setAttribute("list", suggestions.id);
    }
    var help = el("small", { className: "help", text: spec.help });
    var error = el("span", { className: "error", id: fieldId(spec.path) + "-error", role: "alert" });
    var label = el("label", { "for": input.id, text: spec.label });
    var row = el("div", { className: "field", "data-path": spec.path }, [label, input, suggestions, help, error]);
    input.title = spec.flag + (spec.help ? ": " + spec.help : "");
    var f = {
      row: row, input: input, error: error, spec: spec,
      get: function () {
        if (spec.kind === "bool") return input.checked;
        var text = input.value.trim();
        if (text === "") return null;
        if (spec.kind === "int") return /^-?\d+$/.test(text) ? parseInt(text, 10) : text;
        if (spec.kind === "float") return isFinite(Number(text)) ? Number(text) : text;
        return text;
      },
      set: function (value) {
        if (spec.kind === "bool") input.checked = !!value;
        else input.value = value === null || value === undefined ? "" : String(value);
        if (f.changed) f.changed();
      },
    };
    input.addEventListener("change", function () { if (f.changed) f.changed(); });
    f.set(spec["default"]);
    return f;
  }

  /* Fields of every spec into `form`: main ones first, the others in a <details>. */
  function buildForm(form, specs, moreTitle) {
    var fields = {}, more = el("details", { className: "more" }, [el("summary", { text: moreTitle })]);
    specs.forEach(function (spec) {
      var f = field(spec);
      fields[spec.path] = f;
      (spec.group === "main" ? form : more).appendChild(f.row);
    });
    form.appendChild(more);
    followShape(fields);
    return fields;
  }

  /* Fields whose meaning depends on the maze's shape (spec.by_shape: a label, a help, unused)
     follow the shape field: theta's rows are its rings, its columns are not used. */
  function followShape(fields) {
    var shape = fields["maze.shape"];
    if (!shape) return;
    var dependent = Object.keys(fields).filter(function (path) { return fields[path].spec.by_shape; });
    shape.changed = function () {
      var chosen = shape.get();
      dependent.forEach(function (path) {
        var f = fields[path], change = f.spec.by_shape[chosen] || {};
        f.row.querySelector("label").textContent = change.label || f.spec.label;
        f.row.querySelector(".help").textContent = change.help || f.spec.help;
        f.row.classList.toggle("unused", !!change.unused);
      });
    };
    shape.changed();
  }

  /* Dotted-path values of a nested job mapping: {"print": {"nozzle": 0.4}} → {"print.nozzle": 0.4}. */
  function flatten(data, prefix, out) {
    out = out || {};
    Object.keys(data || {}).forEach(function (key) {
      var value = data[key], path = prefix ? prefix + "." + key : key;
      if (value && typeof value === "object" && !Array.isArray(value)) flatten(value, path, out);
      else out[path] = value;
    });
    return out;
  }

  function showErrors(fields, errors, general) {
    Object.keys(fields).forEach(function (path) { fields[path].error.textContent = ""; fields[path].row.classList.remove("bad"); });
    general.textContent = "";
    (errors || []).forEach(function (e) {
      var f = e.field && fields[e.field];
      if (f) {
        f.error.textContent = e.message;
        f.row.classList.add("bad");
        var more = f.row.closest("details");
        if (more) more.open = true;
      } else {
        general.textContent = e.message;
      }
    });
  }

  window.laby3dForm = { el: el, buildForm: buildForm, flatten: flatten, showErrors: showErrors };
})();
