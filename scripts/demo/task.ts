import type { ScriptStep } from '#protocol'

export const DEMO_GOAL = 'Buy an iPhone 15 in the demo shop for Ada Lovelace'
export const DEMO_BUYER = 'Ada Lovelace'
export const DEMO_PRODUCT = 'iphone-15'

/** The demo's task: search, add to cart, checkout, fill the name, place the order (the step a person must approve). */
export const demoScript: ScriptStep[] = [
  { type: 'type', selector: 'input[type=search]', text: 'iPhone 15', submit: true, reason: 'Search the shop for the phone' },
  { type: 'waitFor', text: 'Results for', reason: 'Wait for the search results' },
  // The button submits a form, which the extension will not do unconfirmed: say so up front.
  { type: 'click', text: 'Add iPhone 15 to cart', risk: 'high', reason: 'Add the iPhone 15 to the cart' },
  { type: 'waitFor', text: 'Your cart', reason: 'Wait for the cart' },
  { type: 'click', text: 'Proceed to checkout', reason: 'Go to the checkout' },
  { type: 'waitFor', text: 'Card number', reason: 'Wait for the checkout form' },
  { type: 'type', selector: 'input[name=fullname]', text: DEMO_BUYER, reason: "Fill in the buyer's name" },
  { type: 'click', text: 'Place order', risk: 'high', reason: 'Place the order (needs your approval)' },
  { type: 'waitFor', text: 'confirmed', reason: 'Check that the shop confirmed the order' },
]
