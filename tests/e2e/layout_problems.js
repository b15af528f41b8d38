// Finds what is wider than the screen or cut off, for the browser tests (e2e_helpers.py):
// the page's own width, elements that cut their text (an ellipsis, hidden overflow), blocks
// of text wider than their box (the text runs into its neighbours), scroll boxes that
// hide columns, and menus whose chosen text does not fit. An element whose title holds
// its whole text is not "cut". Suit symbols (SVG, which axe does not judge) must stand
// out from what they are drawn on by 4.5:1, like text. Returns one line per problem.
() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) problems.push(`page ${root.scrollWidth} px wide on ${root.clientWidth}`);
  const shown = (el) => el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true });
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + [...el.classList].map((c) => "." + c).join("");
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el) || el.closest("svg, .visually-hidden")) continue;  // for screen readers only
    const style = getComputedStyle(el);
    const text = el.textContent.trim();
    if (el.title && el.title.includes(text)) continue;
    const clips = style.textOverflow === "ellipsis" || ["hidden", "clip"].includes(style.overflowX);
    if (clips && text && el.scrollWidth > el.clientWidth + 1) problems.push(`${name(el)} cuts "${text.slice(0, 40)}"`);
    // a block of text only, wider than its box: the text runs into its neighbours
    const leaf = !el.children.length && text && !["inline", "contents"].includes(style.display);
    if (leaf && style.overflowX === "visible" && el.scrollWidth > el.clientWidth + 1) problems.push(`${name(el)} spills "${text.slice(0, 40)}"`);
    // a box sticking out of its parent's sides: it covers its neighbours
    const parent = el.parentElement;
    if (parent && style.position === "static" && !["inline", "contents"].includes(getComputedStyle(parent).display)) {
      const [own, outer] = [el.getBoundingClientRect(), parent.getBoundingClientRect()];
      if (own.width && (own.left < outer.left - 1 || own.right > outer.right + 1)) {
        problems.push(`${name(el)} sticks out of ${name(parent)} (${Math.round(own.width)} px in ${Math.round(outer.width)})`);
      }
    }
    if (["auto", "scroll"].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
    }
  }
  const canvas = document.createElement("canvas").getContext("2d");
  for (const select of document.querySelectorAll("select")) {
    if (!shown(select) || select.selectedIndex < 0) continue;
    const style = getComputedStyle(select);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const label = select.options[select.selectedIndex].text;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    if (canvas.measureText(label).width > room) problems.push(`${name(select)} cuts "${label}"`);
  }
  const rgba = (colour) => (colour.match(/[\d.]+/g) || []).map(Number).concat([1]).slice(0, 4);
  const luminance = ([r, g, b]) => {
    const linear = [r, g, b].map((c) => c / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  };
  /** The colour under `el`: its backgrounds and its ancestors', blended down to the page. */
  const ground = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const colour = rgba(getComputedStyle(node).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    let base = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse()) base = [r, g, b].map((c, i) => c * a + base[i] * (1 - a));
    return base;
  };
  for (const icon of document.querySelectorAll("svg.suit-icon")) {
    if (!shown(icon)) continue;
    const [high, low] = [luminance(rgba(getComputedStyle(icon).fill)), luminance(ground(icon))].sort((a, b) => b - a);
    const ratio = (high + 0.05) / (low + 0.05);
    if (ratio < 4.5) problems.push(`suit ${icon.getAttribute("aria-label")} in ${name(icon.parentElement)}: contrast ${ratio.toFixed(2)}`);
  }
  return problems;
}
