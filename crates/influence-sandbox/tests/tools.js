// The editing tools, driven through the page's controls and pointer events as a person would
// use them (tests/browser.rs checks the scene that results): place, drag, paint walls, play,
// step, reset, draw a route, mark a chase, delete with the keyboard, import an export.
(async () => {
  const sb = window.sandbox, out = {};
  const $ = (id) => document.getElementById(id);
  const choose = (id, value) => {
    $(id).value = value;
    $(id).dispatchEvent(new Event("change", { bubbles: true }));
  };
  const pointer = (type, x, y) => {
    const [clientX, clientY] = sb.cellToClient(x, y);
    $("overlay").dispatchEvent(new PointerEvent(type, { clientX, clientY, button: 0, pointerId: 1, bubbles: true }));
  };
  const click = (x, y) => { pointer("pointerdown", x, y); pointer("pointerup", x, y); };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  await sb.ready;
  choose("map-select", "blank-128");
  await sb.idle();
  sb.setTool("add");
  choose("team", "red");
  click(20, 64);
  await sb.idle();
  choose("team", "blue");
  click(100, 64);
  await sb.idle();
  sb.setTool("wall");
  pointer("pointerdown", 60, 10);
  for (let y = 10; y <= 100; y += 5) pointer("pointermove", 60, y);
  pointer("pointerup", 60, 100);
  await sb.idle();
  sb.setTool("select");
  pointer("pointerdown", 20, 64);
  pointer("pointermove", 25, 66);
  pointer("pointermove", 30, 70);
  pointer("pointerup", 30, 70);
  await sb.idle();
  choose("prop-kind", "diffuse");
  await sb.idle();
  $("play").click();
  await sleep(1000);
  $("play").click();
  await sb.idle();
  out.played = sb.state.frame.target;
  $("step-once").click();
  await sb.idle();
  out.stepped = sb.state.frame.target;
  $("reset").click();
  await sb.idle();
  out.reset = sb.state.frame.target;
  sb.setTool("route");
  click(5, 5);
  click(120, 120);
  await sb.idle();
  choose("prop-kind", "flood");
  await sb.idle();
  sb.setTool("seen");
  pointer("pointerdown", 40, 40);
  pointer("pointermove", 45, 40);
  pointer("pointerup", 45, 40);
  await sb.idle();
  out.scene = sb.state.scene;
  const text = await sb.exportToml();
  await sb.importToml(text);
  await sb.idle();
  out.round_trip = (await sb.exportToml()) === text;
  sb.setTool("select");
  click(100, 64);
  window.dispatchEvent(new KeyboardEvent("keydown", { key: "Delete" }));
  await sb.idle();
  out.after_delete = sb.state.scene.sources.map((s) => s.team);
  out.toast = $("toast").textContent;
  return JSON.stringify(out);
})()
