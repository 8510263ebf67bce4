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
