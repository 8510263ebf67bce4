/**
 * chrome.permissions.request, passed in by the entrypoint. It needs the click's user gesture, so a click
 * handler calls it first, before anything it awaits.
 */
export interface Permissions {
  request: (pattern: string) => Promise<boolean>
}
