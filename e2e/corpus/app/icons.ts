/** Named icons as inline SVG paths: buttons that show a picture and no words. */
export const ICON_PATHS: Record<string, string> = {
  trash: 'M6 7h12l-1 14H7L6 7zm3-3h6l1 2H8l1-2z',
  send: 'M2 21l21-9L2 3v7l15 2-15 2v7z',
  check: 'M9 16.2L4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  close: 'M19 6.4L17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12z',
  archive: 'M3 3h18v4H3zm1 5h16v13H4zm5 3v2h6v-2z',
  upload: 'M5 20h14v-2H5v2zm7-16l-6 6h4v6h4v-6h4l-6-6z',
}

/** An emoji stays text; a known name becomes an SVG with no text in it. */
export function isNamedIcon(icon: string): boolean {
  return icon in ICON_PATHS
}

export function svgMarkup(name: string): string {
  return `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path fill="currentColor" d="${ICON_PATHS[name]}"/></svg>`
}
