/**
 * Tasks on the jQuery-era pages: each names its targets as a person would (the delete icon, the fourth star, the
 * Underline button), and each is judged by what the page keeps in its state.
 */
import type { Page } from 'playwright-core'
import { pointerDrag as drag } from '../../support/pointer-drag'
import type { AppTask } from '../types'

type Legacy = Omit<AppTask, 'group' | 'entry'>

const button = (p: Page, name: string) => p.getByRole('button', { name }).click()
const PAGES: Legacy[] = [
  { id: 'inbox-delete', app: 'delegated-list', page: 'inbox', lang: 'en', title: 'Inbox', goal: 'Delete the email "Invoice #2041 overdue"',
    plan: [{ type: 'click', find: { near: 'Invoice #2041 overdue', find: ['Delete', 'delete', 'trash'] } }],
    baseline: async (p) => p.locator('.msg', { hasText: 'Invoice #2041 overdue' }).locator('.delete').click(),
    expect: { state: { messages: ['Team offsite next Thursday', 'Slides for the board meeting', 'Password expires in 3 days'] } } },
  { id: 'inbox-archive', app: 'delegated-list', page: 'inbox', lang: 'zh', title: '收件箱', goal: '把“Team offsite next Thursday”这封邮件归档（在“更多”菜单里）',
    plan: [{ type: 'click', find: { near: 'Team offsite next Thursday', find: ['More', 'more', '…'] } }, { type: 'click', find: 'Archive' }],
    baseline: async (p) => (await p.locator('.msg', { hasText: 'Team offsite' }).locator('.more').click(), await p.getByRole('link', { name: 'Archive' }).click()),
    expect: { state: { archived: ['Team offsite next Thursday'] } } },
  { id: 'hotel-rate', app: 'css-icons', page: 'hotel', lang: 'en', title: 'Review your stay', goal: 'Give Harbour View Hotel 4 stars and submit the review',
    plan: [{ type: 'click', find: ['4 stars', '4 star', 'star 4'] }, { type: 'click', find: 'Submit review' }],
    baseline: async (p) => (await p.locator('#rating .star').nth(3).click(), await button(p, 'Submit review')),
    expect: { state: { review: { rating: 4, comment: '' } } } },
  { id: 'hotel-favourite', app: 'css-icons', page: 'hotel', lang: 'zh', title: '酒店点评', goal: '把 Lakeside Inn 加入收藏（点它前面的心形）',
    plan: [{ type: 'click', find: { near: 'Lakeside Inn', find: ['收藏', 'Favourite', 'favourite', 'favorite', 'heart'] } }],
    baseline: async (p) => p.locator('#hotels li', { hasText: 'Lakeside Inn' }).locator('.fav').click(),
    expect: { state: { favourites: ['Lakeside Inn'] } } },
  { id: 'toolbar-underline', app: 'class-named-toolbar', page: 'editor', lang: 'en', title: 'Draft', goal: 'Underline the whole text of the draft, then save the draft',
    plan: [{ type: 'click', find: 'Quarterly numbers are in' }, { type: 'press', keys: 'Control+A' }, { type: 'click', find: ['Underline', 'underline'] }, { type: 'click', find: 'Save draft' }],
    baseline: async (p) => {
      await p.locator('#body').click()
      await p.keyboard.press('Control+A')
      await p.locator('.ql-underline').click()
      await button(p, 'Save draft')
    },
    expect: { state: { draft: { html: '<u>Quarterly numbers are in</u>', attachments: ['budget.xlsx', 'notes.pdf'] } } } },
  { id: 'toolbar-remove-attachment', app: 'class-named-toolbar', page: 'editor', lang: 'en', title: 'Draft', goal: 'Remove the attachment budget.xlsx from the draft and save it',
    plan: [{ type: 'click', find: { near: 'budget.xlsx', find: ['Remove', 'remove'] } }, { type: 'click', find: 'Save draft' }],
    baseline: async (p) => (await p.locator('#attachments li', { hasText: 'budget.xlsx' }).locator('.glyphicon-remove').click(), await button(p, 'Save draft')),
    expect: { state: { draft: { html: 'Quarterly numbers are in', attachments: ['notes.pdf'] } } } },
  { id: 'toolbar-discard', app: 'class-named-toolbar', page: 'editor', lang: 'zh', title: '草稿', goal: '丢弃这份草稿（点垃圾桶图标）',
    plan: [{ type: 'click', find: ['Delete', 'trash', '垃圾桶'] }],
    baseline: async (p) => p.locator('.fa-trash').click(),
    expect: { state: { discarded: true } } },
  { id: 'selectric-delivery', app: 'selectric', page: 'shipping', lang: 'en', title: 'Checkout', goal: 'Choose Express (1–2 days) delivery and continue to payment',
    plan: [{ type: 'select', find: ['Delivery', 'Standard (3–5 days)'], option: 'Express (1–2 days)' }, { type: 'click', find: 'Continue to payment' }],
    baseline: async (p) => (await p.locator('.selectric').click(), await p.locator('.selectric-items li', { hasText: 'Express' }).click(), await button(p, 'Continue to payment')),
    expect: { state: { delivery: 'express' } } },
  { id: 'select2-country', app: 'select2', page: 'country', lang: 'en', title: 'Shipping address', goal: 'Set the country to Portugal and save the address',
    plan: [{ type: 'select', find: ['Country', 'Select a country'], option: 'Portugal' }, { type: 'click', find: 'Save address' }],
    baseline: async (p) => (await p.locator('.select2-selection').click(), await p.locator('.select2-results__option', { hasText: 'Portugal' }).click(), await button(p, 'Save address')),
    expect: { state: { country: 'Portugal' } } },
  { id: 'chosen-assignee', app: 'chosen', page: 'assignee', lang: 'zh', title: '工单', goal: '把这个工单分派给 Priya Raman，然后保存',
    plan: [{ type: 'select', find: ['Assignee', 'Choose an assignee'], option: 'Priya Raman' }, { type: 'click', find: 'Save ticket' }],
    baseline: async (p) => (await p.locator('.chosen-single').click(), await p.locator('.chosen-results li', { hasText: 'Priya Raman' }).click(), await button(p, 'Save ticket')),
    expect: { state: { assignee: 'Priya Raman' } } },
  { id: 'datepicker-next', app: 'jquery-ui-datepicker', page: 'booking', lang: 'en', title: 'Book a room', goal: 'Check in on 14 February 2027 and book the room',
    plan: [{ type: 'click', find: 'Check-in' }, { type: 'click', find: 'Next' }, { type: 'click', find: 'Next' }, { type: 'click', find: '14' }, { type: 'click', find: 'Book room' }],
    baseline: async (p) => {
      await p.locator('#checkin').click()
      for (let i = 0; i < 2; i++) await p.locator('.ui-datepicker-next').click()
      await p.locator('.ui-datepicker-calendar a', { hasText: /^14$/ }).click()
      await button(p, 'Book room')
    },
    expect: { state: { checkin: '02/14/2027' } } },
  { id: 'datepicker-prev', app: 'jquery-ui-datepicker', page: 'booking', lang: 'zh', title: '预订房间', goal: '入住日期选 2026 年 11 月 9 日，然后预订',
    plan: [{ type: 'click', find: 'Check-in' }, { type: 'click', find: 'Prev' }, { type: 'click', find: '9' }, { type: 'click', find: 'Book room' }],
    baseline: async (p) => {
      await p.locator('#checkin').click()
      await p.locator('.ui-datepicker-prev').click()
      await p.locator('.ui-datepicker-calendar a', { hasText: /^9$/ }).click()
      await button(p, 'Book room')
    },
    expect: { state: { checkin: '11/09/2026' } } },
  { id: 'autocomplete-destination', app: 'jquery-ui-autocomplete', page: 'destination', lang: 'en', title: 'Plan a trip', goal: 'Search trips to Lisbon, Portugal',
    plan: [{ type: 'type', find: ['Destination', 'City or airport'], text: 'Lis' }, { type: 'click', find: 'Lisbon, Portugal' }, { type: 'click', find: 'Search trips' }],
    baseline: async (p) => {
      await p.locator('#dest').pressSequentially('Lis')
      await p.locator('.ui-menu-item', { hasText: 'Lisbon, Portugal' }).click()
      await button(p, 'Search trips')
    },
    expect: { state: { search: { destination: 'Lisbon, Portugal', code: 'LIS' } } } },
  { id: 'feed-retweet', app: 'bare-spans', page: 'feed', lang: 'en', title: 'Feed', goal: 'Retweet the post by @mara',
    plan: [{ type: 'click', find: { near: '@mara', find: ['Retweet', 'retweet'] } }],
    baseline: async (p) => p.locator('.post', { hasText: '@mara' }).locator('.retweet').click(),
    expect: { state: { retweeted: ['@mara'], liked: [] } } },
  { id: 'feed-like', app: 'bare-spans', page: 'feed', lang: 'zh', title: '动态', goal: '给 @li_wei 的帖子点个赞',
    plan: [{ type: 'click', find: { near: '@li_wei', find: ['赞', 'Like', 'like'] } }],
    baseline: async (p) => p.locator('.post', { hasText: '@li_wei' }).locator('.like').click(),
    expect: { state: { retweeted: [], liked: ['@li_wei'] } } },
  { id: 'sortable-checklist', app: 'jquery-ui-sortable', page: 'checklist', lang: 'en', title: 'Release checklist', goal: 'Move "Run the test suite" to the top of the checklist',
    plan: [{ type: 'drag', find: 'Run the test suite', to: 'Write release notes' }],
    baseline: async (p) => drag(p, 'Run the test suite', 'Write release notes'),
    expect: { state: { order: ['Run the test suite', 'Write release notes', 'Tag the release', 'Deploy to production'] } } },
  { id: 'sortablejs-plan', app: 'sortablejs', page: 'board', lang: 'zh', title: '本周计划', goal: '把“设计评审”拖到最前面',
    plan: [{ type: 'drag', find: '设计评审', to: '写测试' }],
    // SortableJS drags natively (HTML5 drag and drop): Playwright's dragTo drives that.
    baseline: async (p) => (await p.getByText('设计评审', { exact: true }).dragTo(p.getByText('写测试', { exact: true }), { targetPosition: { x: 10, y: 2 } }), await p.waitForTimeout(300)),
    expect: { state: { order: ['设计评审', '写测试', '代码评审', '上线发布'] } } },
]

export const LEGACY: AppTask[] = PAGES.map((t) => ({ ...t, group: 'jquery-era', entry: 'legacy' }))
