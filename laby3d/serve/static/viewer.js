/* laby3d serve: the 3D preview. A minimal reader for laby3d's own GLB (one buffer; meshes of
   float32 positions and uint32 indices, one material colour each; a root node rotating z-up mm
   into y-up metres), drawn with three.js, turned by dragging and zoomed with the wheel. */
(function () {
  "use strict";

  function readGlb(buffer) {
    var view = new DataView(buffer);
    if (view.getUint32(0, true) !== 0x46546c67) throw new Error("not a GLB file");
    var jsonLength = view.getUint32(12, true);
    var doc = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 20, jsonLength)));
    var binStart = 20 + jsonLength + 8;
    function accessor(index) {
      var a = doc.accessors[index], v = doc.bufferViews[a.bufferView];
      var offset = binStart + (v.byteOffset || 0) + (a.byteOffset || 0);
      var size = a.type === "VEC3" ? 3 : 1;
      if (a.componentType === 5126) return new Float32Array(buffer, offset, a.count * size);
      if (a.componentType === 5125) return new Uint32Array(buffer, offset, a.count * size);
      throw new Error("unexpected accessor type " + a.componentType);
    }
    function node(index) {
      var n = doc.nodes[index], group = new THREE.Group();
      if (n.rotation) group.quaternion.fromArray(n.rotation);
      if (n.scale) group.scale.fromArray(n.scale);
      if (n.translation) group.position.fromArray(n.translation);
      if (n.mesh !== undefined) {
        doc.meshes[n.mesh].primitives.forEach(function (p) {
          var geometry = new THREE.BufferGeometry();
          geometry.setAttribute("position", new THREE.BufferAttribute(accessor(p.attributes.POSITION), 3));
          geometry.setIndex(new THREE.BufferAttribute(accessor(p.indices), 1));
          geometry.computeVertexNormals();
          var f = doc.materials[p.material].pbrMetallicRoughness.baseColorFactor;
          var material = new THREE.MeshStandardMaterial({ roughness: 0.8, metalness: 0, flatShading: true });
          material.color.setRGB(f[0], f[1], f[2]);
          group.add(new THREE.Mesh(geometry, material));
        });
      }
      (n.children || []).forEach(function (child) { group.add(node(child)); });
      return group;
    }
    var scene = new THREE.Group();
    doc.scenes[doc.scene || 0].nodes.forEach(function (index) { scene.add(node(index)); });
    return scene;
  }

  function Viewer(canvas) {
    var renderer = new THREE.WebGLRenderer({ canvas: canvas, antialias: true, preserveDrawingBuffer: true });
    if ("outputColorSpace" in renderer) renderer.outputColorSpace = "srgb";
    else renderer.outputEncoding = THREE.sRGBEncoding;
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    var scene = new THREE.Scene();
    scene.background = new THREE.Color(0xf4f6fa);
    scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 0.9));
    var sun = new THREE.DirectionalLight(0xffffff, 0.9);
    sun.position.set(0.4, 1, 0.6);
    scene.add(sun);
    var camera = new THREE.PerspectiveCamera(35, 1, 0.001, 100);
    var orbit = { yaw: 0.6, pitch: 0.9, radius: 0.3, target: new THREE.Vector3() };
    var model = null, self = this;
    this.triangles = 0;
    this.models = 0;

    function place() {
      var c = Math.cos(orbit.pitch);
      camera.position.set(
        orbit.target.x + orbit.radius * c * Math.sin(orbit.yaw),
        orbit.target.y + orbit.radius * Math.sin(orbit.pitch),
        orbit.target.z + orbit.radius * c * Math.cos(orbit.yaw)
      );
      camera.lookAt(orbit.target);
    }
    function draw() {
      var width = canvas.clientWidth || 300, height = canvas.clientHeight || 300;
      if (canvas.width !== Math.round(width * renderer.getPixelRatio())) renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      place();
      renderer.render(scene, camera);
    }
    this.draw = draw;

    this.show = function (buffer) {
      var next = readGlb(buffer);
      if (model) {
        scene.remove(model);
        model.traverse(function (o) { if (o.isMesh) { o.geometry.dispose(); o.material.dispose(); } });
      }
      model = next;
      scene.add(model);
      var box = new THREE.Box3().setFromObject(model), sphere = new THREE.Sphere();
      box.getBoundingSphere(sphere);
      orbit.target.copy(sphere.center);
      orbit.radius = (sphere.radius / Math.sin((camera.fov * Math.PI) / 360)) * 0.8;
      var triangles = 0;
      model.traverse(function (o) { if (o.isMesh) triangles += o.geometry.index.count / 3; });
      self.triangles = triangles;
      self.models += 1;
      draw();
    };


    var drag = null;
    canvas.addEventListener("pointerdown", function (e) {
      drag = { x: e.clientX, y: e.clientY };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener("pointermove", function (e) {
      if (!drag) return;
      orbit.yaw -= (e.clientX - drag.x) * 0.01;
      orbit.pitch = Math.max(0.05, Math.min(1.55, orbit.pitch + (e.clientY - drag.y) * 0.01));
      drag = { x: e.clientX, y: e.clientY };
      draw();
    });
    canvas.addEventListener("pointerup", function () { drag = null; });
    canvas.addEventListener("wheel", function (e) {
      e.preventDefault();
      orbit.radius *= Math.exp(e.deltaY * 0.001);
      draw();
    }, { passive: false });
    window.addEventListener("resize", draw);
    draw();
  }

  window.Laby3dViewer = Viewer;
  window.laby3dReadGlb = readGlb;
})();
