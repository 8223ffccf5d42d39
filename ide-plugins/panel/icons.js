// Small line icons for tool kinds (ACP ToolKind) and the panel's own buttons, drawn as SVG
// in the text colour, so they follow the theme and need no icon font.
const PATHS = {
  read: 'M3 2h7l3 3v9H3z M10 2v3h3 M5 8h6 M5 11h6',
  edit: 'M2 14l1-4 8-8 3 3-8 8z M9 4l3 3',
  delete: 'M3 4h10 M6 4V2h4v2 M4 4l1 10h6l1-10',
  move: 'M2 8h11 M10 5l3 3-3 3',
  search: 'M7 2a5 5 0 1 0 0 10a5 5 0 1 0 0-10 M10.5 10.5L14 14',
  execute: 'M2 3h12v10H2z M4 6l2 2-2 2 M8 10h4',
  think: 'M8 2a4 4 0 0 0-2 7.5V11h4V9.5A4 4 0 0 0 8 2 M6 13h4',
  fetch: 'M8 2v9 M5 8l3 3 3-3 M3 14h10',
  switch_mode: 'M3 5h10l-3-3 M13 11H3l3 3',
  board: 'M4 4h8v8H4z M6 1v3 M10 1v3 M6 12v3 M10 12v3 M1 6h3 M1 10h3 M12 6h3 M12 10h3',
  simulate: 'M1 11h3V5h3v6h3V5h3v6h2',
  other: 'M8 1l1.5 4.5L14 7l-4.5 1.5L8 13l-1.5-4.5L2 7l4.5-1.5z',
};

/** An <svg> icon for `name` (a ToolKind, 'board' or 'simulate'); unknown names get 'other'. */
export function icon(name) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.dataset.icon = PATHS[name] ? name : 'other';
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', PATHS[name] ?? PATHS.other);
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '1.3');
  path.setAttribute('stroke-linejoin', 'round');
  path.setAttribute('stroke-linecap', 'round');
  svg.append(path);
  return svg;
}
