// The end-to-end script tests/browser.rs runs in the page: it uses the page as a person
// would — picks the map, the layer and the team in the controls, clicks the map with the Add
// tool — and returns what it saw as JSON: the map canvas before and after (RGB, base64), the
// sources and the exported TOML.
(async () => {
  const sb = window.sandbox, out = { ok: false };
  const $ = (id) => document.getElementById(id);
  const choose = (id, value) => {
    $(id).value = value;
    $(id).dispatchEvent(new Event("change", { bubbles: true }));
  };
  const click = (x, y) => {
    const [cx, cy] = sb.cellToClient(x, y), ov = $("overlay");
    for (const type of ["pointerdown", "pointerup"]) {
      ov.dispatchEvent(new PointerEvent(type, { clientX: cx, clientY: cy, button: 0, pointerId: 1, bubbles: true }));
    }
  };
  const canvasRgb = () => {
    const c = $("map"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let s = "";
    for (let i = 0; i < d.length; i += 4) s += String.fromCharCode(d[i], d[i + 1], d[i + 2]);
    return btoa(s);
  };
  try {
    await sb.ready;
    choose("map-select", "den012d");
    await sb.idle();
    choose("layer", "tension");
    await sb.idle();
    out.before = canvasRgb();
    sb.setTool("add");
    for (const [team, x, y] of [["red", 100, 98], ["blue", 190, 225]]) {
      choose("team", team);
      $("strength-n").value = "10";
      $("strength-n").dispatchEvent(new Event("change", { bubbles: true }));
      $("radius-n").value = "40";
      $("radius-n").dispatchEvent(new Event("change", { bubbles: true }));
      click(x, y);
      await sb.idle();
    }
    out.layer = $("layer").value;
    out.width = $("map").width;
    out.height = $("map").height;
    out.after = canvasRgb();
    out.sources = sb.state.scene.sources;
    out.export = await sb.exportToml();
    out.ok = true;
  } catch (e) {
    out.error = String((e && e.stack) || e);
  }
  return JSON.stringify(out);
})()
