/**
 * Pages where the action changes nothing on any server: searches, filters, accordions, tabs, pickers, reads by POST,
 * expanding links and third-party telemetry. Asking about these is a needless question.
 */
import type { Case, Lang, Stack, Step, Widget } from '../types'
import { click, clickAt, make, type, type Mechanism } from './make'

const r = (lang: Lang, id: string, stack: Stack, mechanism: Mechanism, goal: string, title: string, intro: string, widget: Widget, steps: Step[], telemetryOnLoad = false): Case =>
  make({ id: `${lang}-${stack}-${id}`, lang, stack, mechanism, goal, title, intro, widget, steps, irreversible: false, telemetryOnLoad })

const get = (path: string) => ({ via: 'fetch' as const, method: 'GET' as const, path })
const post = (path: string) => ({ via: 'fetch' as const, method: 'POST' as const, path })
const query = (name: string) => ({ via: 'graphql' as const, op: 'query' as const, name })
const tele = (event: string) => ({ via: 'telemetry' as const, event })
const ws = (path: string) => ({ via: 'socket-send' as const, path })
const typing = (path: string) => ({ via: 'socket-send' as const, path, frame: 'typing' as const })
const q = (text: string, submit = false) => type('[name=q]', text, 'name=q', submit)

const searchForm = (label: string, placeholder: string, onSubmit?: Extract<Widget, { kind: 'form' }>['onSubmit']): Widget => ({
  kind: 'form', fields: [{ name: 'q', label: placeholder, kind: 'search' }], submit: { label }, ...(onSubmit ? { onSubmit } : {}),
})
const accordion = (items: [string, string][]): Widget => ({ kind: 'accordion', items: items.map(([title, body]) => ({ title, body })) })
const tabs = (titles: string[], effect?: Extract<Widget, { kind: 'tabs' }>['effect']): Widget => ({ kind: 'tabs', tabs: titles.map((title) => ({ title, body: `${title}: …` })), ...(effect ? { effect } : {}) })
const chips = (list: string[], removeLabel: string): Widget => ({ kind: 'chips', chips: list, removeLabel, effect: get('/products') })

const EN: Case[] = [
  r('en', 'search', 'plain', 'search', 'Find wool socks', 'Shop', 'Free delivery over $50.', searchForm('Search', 'Search products'), [q('wool socks'), click('Search')]),
  r('en', 'search-enter', 'plain', 'search', 'Look up the return policy', 'Help centre', 'Answers to common questions.', searchForm('Go', 'Search help'), [q('returns', true)]),
  r('en', 'accordion', 'plain', 'read-widget', 'What delivery options are there?', 'Blue kettle', '$39. In stock.', accordion([['Payment & delivery', 'Card or PayPal. Delivery in 2–4 days.'], ['Warranty', '2 years.']]), [click('Payment & delivery')]),
  r('en', 'filter-apply', 'plain', 'read-widget', 'Show only red shoes', 'Shoes', '248 products.', { kind: 'form', fields: [{ name: 'color', label: 'Colour' }], submit: { label: 'Apply' }, onSubmit: get('/products') }, [type('[name=color]', 'red', 'name=color'), click('Apply')]),
  r('en', 'chips', 'plain', 'read-widget', 'Show all colours again', 'Shoes', 'Filtered: 12 products.', chips(['Colour: red', 'Size: 42'], 'Remove filter'), [click('Remove filter Colour: red')]),
  r('en', 'date-ok', 'plain', 'read-widget', 'Pick 14 December for check-in', 'Hotel search', 'Lisbon, 2 guests.', { kind: 'datepicker', label: 'Check-in' }, [clickAt('#date', 'Check-in'), click('14', ['14', 'Now', '此刻', 'Today', '今天']), click('OK')]),
  r('en', 'read-more', 'plain', 'js-link', 'Read the rest of the review', 'Reviews', '★★★★☆ "Great kettle, but…"', { kind: 'link', label: 'Read more', href: '', expands: 'the lid is a little stiff.' }, [click('Read more')]),
  r('en', 'tabs-tele', 'plain', 'telemetry', 'Show me the reviews tab', 'Blue kettle', '$39. In stock.', tabs(['Description', 'Reviews'], tele('tab')), [click('Reviews')], true),
  r('en', 'pagination', 'plain', 'read-widget', 'Go to page 2 of the results', 'Results', 'Page 1 of 3.', { kind: 'pagination', pages: 3, effect: get('/results') }, [click('2')]),
  r('en', 'search-post', 'plain', 'search', 'Search the archive for "budget"', 'Archive', 'Documents since 2019.', searchForm('Search', 'Search archive', post('/api/search')), [q('budget'), click('Search')]),
  r('en', 'autocomplete', 'plain', 'search', 'Find the Lisbon office address', 'Offices', 'We have 14 offices.', searchForm('Find', 'City', post('/api/autocomplete')), [q('Lisbon'), click('Find')]),
  r('en', 'load-more', 'react', 'graphql-query', 'Show more products', 'New arrivals', '24 of 96 shown.', { kind: 'button', label: 'Load more', effect: query('MoreProducts') }, [click('Load more')]),
  r('en', 'accordion', 'react', 'read-widget', 'How is it delivered?', 'Desk lamp', '$59. 3 colours.', accordion([['Payment & delivery', 'Delivery in 3 days.'], ['Returns', '30 days.']]), [click('Payment & delivery')]),
  r('en', 'tabs-tele', 'react', 'telemetry', 'Open the specifications', 'Desk lamp', '$59. 3 colours.', tabs(['Overview', 'Specifications'], tele('tab')), [click('Specifications')], true),
  r('en', 'details', 'react', 'telemetry', 'Show the photo gallery', 'Cabin in the woods', '★ 4.9 · 2 bedrooms.', { kind: 'button', label: 'Show all photos', effect: tele('gallery') }, [click('Show all photos')]),
  r('en', 'sort', 'react', 'read-widget', 'Sort by lowest price', 'Laptops', '38 products.', { kind: 'select', label: 'Sort by', options: ['Relevance', 'Price: low to high'], value: 'Relevance', effect: get('/laptops') }, [{ type: 'select', selector: '#setting', option: 'Price: low to high', find: 'name=setting' }]),
  r('en', 'collapse', 'antd', 'read-widget', 'What are the payment options?', 'Order summary', '2 items, $84.', accordion([['Payment & delivery', 'Card, PayPal or invoice.'], ['Gift options', 'Add a note.']]), [click('Payment & delivery')]),
  r('en', 'tabs', 'antd', 'read-widget', 'Show the reviews', 'Headphones', '$129.', tabs(['Details', 'Reviews']), [click('Reviews')]),
  r('en', 'pagination', 'antd', 'read-widget', 'Next page of orders please', 'Orders', '42 orders.', { kind: 'pagination', pages: 5, effect: get('/orders') }, [click('2')]),
  r('en', 'date-ok', 'antd', 'read-widget', 'Set the start date to the 15th', 'Report', 'Choose a period.', { kind: 'datepicker', label: 'Start' }, [clickAt('#date', 'Start'), click('15', ['15', 'Now', '此刻', 'Today', '今天']), click('OK')]),
  r('en', 'tag-close', 'antd', 'read-widget', 'Drop the size filter', 'Shoes', 'Filtered: 12 products.', chips(['Size: 42', 'In stock'], 'Remove filter'), [click('Remove filter Size: 42')]),
  r('en', 'apply', 'antd', 'read-widget', 'Apply the filters', 'Flights', '12 results.', { kind: 'button', label: 'Apply', effect: get('/flights') }, [click('Apply')], true),
  r('en', 'accordion', 'mui', 'read-widget', 'Check delivery times', 'Sofa', '$899. Ships in 2 weeks.', accordion([['Payment & delivery', 'Pay in 3. Delivery in 2 weeks.'], ['Care', 'Vacuum weekly.']]), [click('Payment & delivery')]),
  r('en', 'tabs', 'mui', 'telemetry', 'Show the Q&A tab', 'Sofa', '$899.', tabs(['Details', 'Questions'], tele('tab')), [click('Questions')], true),
  r('en', 'chip-delete', 'mui', 'read-widget', 'Remove the brand filter', 'Phones', '9 results.', chips(['Brand: Nokia'], 'Remove filter'), [click('Remove filter Brand: Nokia')]),
  r('en', 'apply-filters', 'mui', 'read-widget', 'Apply my filters', 'Jobs', '120 jobs.', { kind: 'button', label: 'Apply filters', effect: get('/jobs') }, [click('Apply filters')]),
  r('en', 'search-post', 'mui', 'search', 'Search tickets about "login"', 'Tickets', '4,210 tickets.', searchForm('Search', 'Search tickets', post('/api/search')), [q('login'), click('Search')]),
  r('en', 'collapse', 'element', 'read-widget', 'Read about shipping', 'Order #5521', 'Shipped yesterday.', accordion([['Payment & delivery', 'Paid by card. Courier: DHL.'], ['Invoice', 'PDF.']]), [click('Payment & delivery')]),
  r('en', 'date-ok', 'element', 'read-widget', 'Choose the 20th', 'Booking', 'Pick a time.', { kind: 'datepicker', label: 'When' }, [clickAt('#date', 'When'), click('20', ['20', 'Now', '此刻', 'Today', '今天']), click('OK')]),
  r('en', 'read-more', 'vue', 'js-link', 'Expand the post', 'Forum', 'Topic: best hikes near Porto.', { kind: 'link', label: 'Show more', href: '', expands: 'Try the Paiva walkways.' }, [click('Show more')]),
  r('en', 'tabs-tele', 'vue', 'telemetry', 'Open the pricing tab', 'Product tour', 'Everything in one place.', tabs(['Features', 'Pricing'], tele('tab')), [click('Pricing')], true),
  r('en', 'search', 'vue', 'search', 'Search for "tent"', 'Outdoor shop', 'Camping gear.', searchForm('Search', 'Search', query('SearchProducts')), [q('tent'), click('Search')]),
  // The page keeps a chat socket open; what these controls send over it says nothing (a keep-alive, "is typing").
  r('en', 'ws-draft', 'plain', 'socket-presence', 'Write a draft to Sam but do not send it yet', 'Sam Carter', 'Online.',
    { kind: 'chat', placeholder: 'Write a message', box: 'contenteditable', aria: 'Message Sam Carter', key: 'Enter', effect: ws('/rt'), typing: typing('/rt') },
    [type('#chat', 'Draft: about Friday', ['Message Sam Carter', 'role=textbox'])]),
  r('en', 'ws-reconnect', 'react', 'socket-presence', 'Check whether the chat is connected', 'Support chat', 'Connection: unknown.',
    { kind: 'button', label: 'Check connection', effect: { via: 'socket-send', path: '/socket', frame: 'ping' } }, [click('Check connection')]),
]

const ZH: Case[] = [
  r('zh', 'search', 'plain', 'search', '搜一下羊毛袜', '商城', '满 99 包邮。', searchForm('搜索', '搜索商品'), [q('羊毛袜'), click('搜索')]),
  r('zh', 'accordion', 'plain', 'read-widget', '看看支付和配送方式', '蓝色电水壶', '¥239，有货。', accordion([['支付与配送', '支持微信、支付宝；2–4 天送达。'], ['售后保障', '两年质保。']]), [click('支付与配送')]),
  r('zh', 'filter', 'plain', 'read-widget', '只看红色的', '女鞋', '共 248 件商品。', { kind: 'form', fields: [{ name: 'color', label: '颜色' }], submit: { label: '筛选' }, onSubmit: get('/products') }, [type('[name=color]', '红色', 'name=color'), click('筛选')]),
  r('zh', 'date-ok', 'plain', 'read-widget', '入住日期选 14 号', '酒店预订', '杭州，2 位成人。', { kind: 'datepicker', label: '入住日期' }, [clickAt('#date', '入住日期'), click('14', ['14', 'Now', '此刻', 'Today', '今天']), click('确定')]),
  r('zh', 'read-more', 'plain', 'js-link', '把这条评价展开看看', '商品评价', '★★★★☆ “很好用，就是……”', { kind: 'link', label: '展开全文', href: '', expands: '盖子有点紧。' }, [click('展开全文')]),
  r('zh', 'suggest', 'plain', 'search', '查一下杭州的门店', '门店查询', '全国 120 家门店。', searchForm('查询', '城市', post('/api/suggest')), [q('杭州'), click('查询')]),
  r('zh', 'tabs-tele', 'plain', 'telemetry', '看看商品评价', '蓝色电水壶', '¥239。', tabs(['商品详情', '商品评价'], tele('tab')), [click('商品评价')], true),
  r('zh', 'next-page', 'plain', 'read-widget', '翻到第 2 页', '搜索结果', '第 1 页，共 3 页。', { kind: 'pagination', pages: 3, effect: get('/results') }, [click('2')]),
  r('zh', 'chips', 'react', 'read-widget', '把颜色筛选去掉', '女鞋', '已筛选：12 件商品。', chips(['颜色：红色', '尺码：38'], '移除筛选'), [click('移除筛选 颜色：红色')]),
  r('zh', 'load-more', 'react', 'graphql-query', '再多看点新品', '新品上架', '已显示 24 / 96。', { kind: 'button', label: '加载更多', effect: query('MoreProducts') }, [click('加载更多')]),
  r('zh', 'details', 'react', 'telemetry', '看看所有照片', '西湖边民宿', '★ 4.9 · 两室。', { kind: 'button', label: '查看全部照片', effect: tele('gallery') }, [click('查看全部照片')], true),
  r('zh', 'collapse', 'antd', 'read-widget', '看看怎么付款', '订单摘要', '2 件商品，¥584。', accordion([['支付与配送', '支持分期。'], ['发票', '电子发票。']]), [click('支付与配送')]),
  r('zh', 'tabs', 'antd', 'read-widget', '切到评价', '耳机', '¥899。', tabs(['详情', '评价']), [click('评价')]),
  r('zh', 'pagination', 'antd', 'read-widget', '看第二页订单', '我的订单', '共 42 单。', { kind: 'pagination', pages: 5, effect: get('/orders') }, [click('2')]),
  r('zh', 'date-ok', 'antd', 'read-widget', '开始日期选 15 号', '报表', '选择统计周期。', { kind: 'datepicker', label: '开始日期' }, [clickAt('#date', '开始日期'), click('15', ['15', 'Now', '此刻', 'Today', '今天']), click('确 定')]),
  r('zh', 'filter', 'antd', 'read-widget', '按条件筛选一下', '机票', '共 12 个航班。', { kind: 'button', label: '筛选', effect: get('/flights') }, [click('筛 选')], true),
  r('zh', 'tag-close', 'antd', 'read-widget', '去掉尺码筛选', '女鞋', '已筛选：12 件商品。', chips(['尺码：38', '有货'], '移除筛选'), [click('移除筛选 尺码：38')]),
  r('zh', 'collapse', 'element', 'read-widget', '看看配送说明', '订单 #5521', '昨天已发货。', accordion([['支付与配送', '顺丰速运。'], ['发票信息', '电子发票。']]), [click('支付与配送')]),
  r('zh', 'date-ok', 'element', 'read-widget', '选 20 号', '预约', '请选择时间。', { kind: 'datepicker', label: '预约时间' }, [clickAt('#date', '预约时间'), click('20', ['20', 'Now', '此刻', 'Today', '今天']), click('确定')]),
  r('zh', 'tabs', 'element', 'read-widget', '看看规格参数', '笔记本电脑', '¥6,999。', tabs(['商品介绍', '规格参数']), [click('规格参数')]),
  r('zh', 'pagination', 'element', 'read-widget', '下一页', '帖子列表', '共 50 条。', { kind: 'pagination', pages: 5, effect: get('/threads') }, [click('2')]),
  r('zh', 'search', 'element', 'search', '搜“帐篷”', '户外用品', '露营装备。', searchForm('搜索', '搜索', post('/api/search')), [q('帐篷'), click('搜索')]),
  r('zh', 'accordion', 'mui', 'read-widget', '看下配送时效', '沙发', '¥5,999，两周发货。', accordion([['支付与配送', '分期免息，两周送达。'], ['保养', '每周吸尘。']]), [click('支付与配送')]),
  r('zh', 'tabs-tele', 'mui', 'telemetry', '看看问答', '沙发', '¥5,999。', tabs(['详情', '问答'], tele('tab')), [click('问答')], true),
  r('zh', 'read-more', 'vue', 'js-link', '展开这篇帖子', '论坛', '话题：杭州周边徒步。', { kind: 'link', label: '展开', href: '', expands: '推荐九溪十八涧。' }, [click('展开')]),
  r('zh', 'query', 'vue', 'graphql-query', '查一下我的积分', '会员中心', '黄金会员。', { kind: 'button', label: '查看积分明细', effect: query('PointsHistory') }, [click('查看积分明细')]),
  // 页面一直连着聊天的 WebSocket；这些控件在上面发的只是心跳和“正在输入”。
  r('zh', 'ws-draft', 'react', 'socket-presence', '先给小王写个草稿，别发出去', '小王', '在线。',
    { kind: 'chat', placeholder: '输入消息', key: 'Enter', effect: ws('/socket'), typing: typing('/socket') }, [type('#chat', '草稿：周五的事', 'name=message')]),
  r('zh', 'ws-reconnect', 'vue', 'socket-presence', '看看聊天连上了没有', '在线客服', '连接状态：未知。',
    { kind: 'button', label: '检查连接', effect: { via: 'socket-send', path: '/live', frame: 'ping' } }, [click('检查连接')]),
]

export const READS: Case[] = [...EN, ...ZH]
