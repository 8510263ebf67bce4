import { normalizeLabel } from './label-text'

/**
 * Icon-only buttons say what they do with a picture. The page reads the icon's name from where the common
 * libraries put it (see iconNamesOfClass and extension/lib/page/icons.ts) and sends it as the `icon` attribute;
 * these tables turn a name, or an emoji label, into the word the label rules already know.
 */

/** Canonical icon name → the label word it stands for. Only names that mean one thing everywhere. */
const ICON_WORDS: Record<string, string> = {
  delete: 'delete', trash: 'delete', bin: 'delete', garbage: 'delete', 'delete-forever': 'delete', 'delete-sweep': 'delete', 'recycle-bin': 'delete',
  send: 'send', 'paper-plane': 'send', 'send-message': 'send', upload: 'upload', 'cloud-upload': 'upload', 'file-upload': 'upload',
  'credit-card': 'pay', payment: 'pay', pay: 'pay', 'pay-circle': 'pay',
  'shopping-cart': 'add to cart', cart: 'add to cart', 'cart-plus': 'add to cart', 'add-shopping-cart': 'add to cart', 'shopping-cart-add': 'add to cart',
  download: 'download', 'cloud-download': 'download', 'file-download': 'download',
}

/** Emoji (already without variation selectors, see normalizeLabel) → the label word. */
const EMOJI_WORDS: Record<string, string> = {
  '🗑': 'delete', '🚮': 'delete', '✉': 'send', '📤': 'send', '📨': 'send', '📧': 'send', '💳': 'pay', '💸': 'pay', '🛒': 'add to cart', '📥': 'download', '⬇': 'download',
}

// Style words that libraries add to a base name: `delete-outlined`, `trash-alt`, `fa-trash-can`, `DeleteOutlineIcon`.
const STYLE_SUFFIX = /-(outlined|outline|filled|fill|twotone|two-tone|rounded|round|sharp|solid|regular|light|thin|o|alt|icon|can|2|circle-o)$/

/** An icon name as found (`DeleteOutlined`, `delete_forever`, `fa-trash-can`) in the form ICON_WORDS uses. */
export function canonicalIconName(raw: string): string {
  let name = raw
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[_\s]+/g, '-')
    .replace(/^(anticon|el-icon|fa[srlbdk]?|bi|mdi|ti|lucide|glyphicon|icon|iconfont|ri|ion|ionicon|material-icons|ms)-/, '')
  for (let previous = ''; previous !== name; ) {
    previous = name
    name = name.replace(STYLE_SUFFIX, '').replace(/(?<=[a-z])\d+$/, '')
  }
  return name
}

// Class prefixes under which the common libraries name an icon: antd, Element, Font Awesome, Bootstrap Icons,
// Material Design Icons, Tabler, Lucide, Remix, Ionicons, iconfont.cn, Glyphicons.
const ICON_CLASS = /^(anticon|el-icon|fa|fas|far|fal|fad|fab|bi|mdi|ti|lucide|ri|ion|glyphicon|icon|iconfont)-(.+)$/
// Modifier classes that share those prefixes but name no icon.
const NOT_A_NAME = /^(fa-(fw|lg|xs|sm|[1-9]x|spin|pulse|border|pull-.*|inverse|stack.*|solid|regular|light|thin|duotone|brands|rotate.*|flip.*)|anticon-spin|icon-(btn|button|wrapper|only|left|right|sm|lg))$/

/** The icon names a class attribute spells (`anticon anticon-delete` → ['anticon-delete']). */
export function iconNamesOfClass(className: string): string[] {
  return className.split(/\s+/).filter((c) => ICON_CLASS.test(c) && !NOT_A_NAME.test(c))
}

// Words class names use for how a thing looks, where it sits or what state it is in, not for what it is.
const NOT_A_NAME_WORD = new Set([
  'icon', 'icons', 'ico', 'glyphicon', 'anticon', 'iconfont', 'material', 'symbols', 'svg', 'img', 'image', 'btn', 'button', 'buttons',
  'link', 'item', 'items', 'wrap', 'wrapper', 'container', 'inner', 'outer', 'box', 'control', 'ctrl', 'action', 'actions', 'tool', 'tools',
  'toolbar', 'widget', 'component', 'element', 'block', 'inline', 'flex', 'grid', 'col', 'pull', 'left', 'right', 'top', 'bottom',
  'center', 'middle', 'small', 'large', 'big', 'mini', 'tiny', 'primary', 'secondary', 'default', 'light', 'dark', 'active', 'inactive',
  'selected', 'checked', 'current', 'disabled', 'enabled', 'hover', 'hovered', 'focus', 'focused', 'opened', 'hidden', 'visible', 'show',
  'shown', 'fade', 'clickable', 'pointer', 'cursor', 'hand', 'clearfix', 'has', 'not', 'the', 'and', 'with', 'outlined', 'rounded',
  'round', 'sharp', 'solid', 'regular', 'text', 'label', 'span', 'corner', 'all', 'state', 'helper', 'content', 'cell', 'over', 'front',
  'reset', 'priority', 'theme',
])

// Short forms class names use for the word a person says (`fav` is the heart a person calls favorite).
const SPOKEN: Record<string, string> = {
  fav: 'favorite', fave: 'favorite', favs: 'favorites', del: 'delete', msg: 'message', msgs: 'messages', prev: 'previous', nxt: 'next',
  fwd: 'forward', cfg: 'settings', conf: 'settings', pref: 'preferences', prefs: 'preferences', pic: 'picture', pics: 'pictures',
  usr: 'user', srch: 'search', notif: 'notifications', notifs: 'notifications', cal: 'calendar', doc: 'document', docs: 'documents',
}

/**
 * What a wordless control's own class names call it, as one name (`icon more` → more, `ql-underline` → underline,
 * `star on` → star, `btn btn-close` → close): the page author's word for a thing drawn only by CSS, the last class
 * that has one (a base class comes first, the specific one after it). None when the classes are utilities (Tailwind's
 * `p-2 text-gray-500`): a class with a digit, colon, bracket or slash says the others are no names either.
 */
export function classWords(className: string): string {
  const classes = className.split(/\s+/).filter(Boolean)
  if (classes.some((c) => /[\d:[\]/]/.test(c))) return ''
  for (const c of classes.reverse()) {
    const words = c.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase().split(/[-_]+/).filter((w) => w.length >= 3 && !NOT_A_NAME_WORD.has(w))
    if (words.length) return words.slice(-2).map((w) => SPOKEN[w] ?? w).join('-')
  }
  return ''
}

/** The label word for the icons an element showed (the `icon` attribute: names separated by spaces). */
export function iconWord(icon: string | undefined): string | undefined {
  for (const name of (icon ?? '').split(/\s+/)) {
    const word = name && ICON_WORDS[canonicalIconName(name)]
    if (word) return word
  }
  return undefined
}

/** The label word for a label made only of emoji and symbols (🗑️, 📤, 💳). */
export function emojiWord(label: string): string | undefined {
  for (const char of normalizeLabel(label)) {
    const word = EMOJI_WORDS[char]
    if (word) return word
  }
  return undefined
}
