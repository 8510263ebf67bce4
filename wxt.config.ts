import preact from '@preact/preset-vite'
import { defineConfig } from 'wxt'
import { fileURLToPath } from 'node:url'

/** Where the server may run: loopback on any port (match patterns without a port match every port). */
const SERVER_ORIGINS = ['http://127.0.0.1/*', 'http://localhost/*']

const ICONS = { 16: 'icon/16.png', 32: 'icon/32.png', 48: 'icon/48.png', 128: 'icon/128.png' }

/**
 * One build, `dist/chrome-mv3`: the extension people load is the one the demo, the benchmarks and the end-to-end
 * tests load, with nothing granted but what a person would grant. Never add host permissions for tests.
 */
export default defineConfig({
  srcDir: 'extension',
  outDir: 'dist',
  // Files copied as they are (the icons): kept with the extension's sources, not at the project's root.
  publicDir: 'extension/public',
  // Explicit imports: what a file uses is visible in the file (same rule as the server).
  imports: false,
  webExt: { disabled: true },
  alias: { '#protocol': fileURLToPath(new URL('./protocol/index.ts', import.meta.url)) },
  vite: () => ({ plugins: [preact()] }),
  manifest: {
    name: 'Tandem',
    description: 'A browser agent that acts one step at a time and asks before every risky one.',
    // notifications: "a decision is waiting" while the side panel is closed.
    // declarativeNetRequest: while a step runs, a session rule keeps the task tab (and windows its page opens)
    // from navigating to a site the person did not grant; block rules need no host permission.
    // webNavigation: tells which site a blocked navigation was for, so the step is refused naming it; its
    // warning ("read your browsing history") is the one `tabs` already carries.
    // debugger: screenshots of the task's tab whether or not it is the visible one (CDP Page.captureScreenshot);
    // captureVisibleTab would need <all_urls> for that, or activeTab, which only a click on the toolbar grants
    // and only for the tab in front. Chrome shows "Tandem started debugging this browser" while it is attached.
    // debugger also carries the write barrier: CDP Fetch holds the writes an unapproved step sends (see the README).
    // webRequest: when the debugger cannot be had, the barrier's fallback blocks writes with session rules and
    // webRequest says which request was blocked (only on sites the person granted).
    // tabGroups: the tabs a task opens (a result in a new tab) are grouped under the task's name, so the person
    // sees which tabs the task owns. It adds one install warning: "View and manage your tab groups".
    // activeTab: the fallback when the person cancels that bar (a click on the toolbar icon grants the tab in front).
    permissions: [
      'alarms',
      'storage',
      'tabs',
      'scripting',
      'sidePanel',
      'activeTab',
      'notifications',
      'declarativeNetRequest',
      'webNavigation',
      'debugger',
      'webRequest',
      'tabGroups',
    ],
    host_permissions: SERVER_ORIGINS,
    // Sites are asked for one at a time, from the side panel, when a task first needs them.
    optional_host_permissions: ['*://*/*'],
    // Two overlapping rings, drawn by scripts/make-icons.ts into extension/public/icon/.
    icons: ICONS,
    action: { default_title: 'Open Tandem', default_icon: ICONS },
  },
})
