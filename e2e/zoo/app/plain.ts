/**
 * Pages without a component library, the way many sites still are: a multipart form with a file input, results that
 * open in a new tab (target=_blank links, window.open on clickable cards), CSS hover menus, a hover card.
 */
import { pick, post, zoo } from './zoo'

const app = document.getElementById('app')!
const html = (s: string) => (app.innerHTML = s)
const on = (sel: string, type: string, fn: (e: Event) => void) => document.querySelectorAll(sel).forEach((el) => el.addEventListener(type, fn))

document.head.append(Object.assign(document.createElement('style'), { textContent: `
.nav{display:flex;gap:28px;list-style:none;padding:0}.nav>li{position:relative;padding:6px 0}.nav ul{display:none;position:absolute;top:30px;left:0;background:#fff;border:1px solid #ccc;list-style:none;padding:6px 12px;width:120px}
.nav>li:hover ul{display:block}.card{border:1px solid #ccc;border-radius:8px;padding:12px;margin:8px 0;width:360px;cursor:pointer}.hovercard{display:none;border:1px solid #ccc;padding:10px;width:220px;background:#fff}` }))

const ITEMS = ['无线降噪耳机 Pro', '机械键盘 K8', '便携显示器 15.6 英寸']

const PAGES: Record<string, () => void> = {
  'plain-upload': () => html(`<form method="post" enctype="multipart/form-data" action="${zoo.base}/upload">
    <p><label for="resume">简历（PDF）</label> <input type="file" id="resume" name="resume" accept=".pdf"></p>
    <p><label for="job">应聘职位</label> <input id="job" name="job" value="前端工程师"></p><button type="submit">提交申请</button></form>`),
  'newtab-link': () => html(`<p>搜索“耳机”的结果：</p><ol>${ITEMS.map((t, i) => `<li><a href="${zoo.base}/item/${i + 1}" target="_blank">${t}</a></li>`).join('')}</ol>`),
  'newtab-open': () => {
    html(ITEMS.map((t, i) => `<div class="card" data-item="${i + 1}"><strong>${t}</strong><p>月销 ${(i + 2) * 1000}+</p></div>`).join(''))
    on('.card', 'click', (e) => window.open(`${zoo.base}/item/${(e.currentTarget as HTMLElement).dataset.item}`, '_blank'))
  },
  item: () => {
    const n = Number(/\/item\/(\d+)/.exec(location.pathname)?.[1] ?? 1)
    html(`<h2>${ITEMS[n - 1]}</h2><p>¥ ${n * 199}</p><button type="button" id="cart">加入购物车</button>`)
    on('#cart', 'click', () => post('/cart', { item: n }))
  },
  'switch-tab': () => {
    html(`<p>订单：机械键盘 K8 × 1</p><p><a href="${zoo.base}/help" target="_blank">查看配送说明</a></p><button type="button" id="order">提交订单</button>`)
    on('#order', 'click', () => post('/order', { item: 2 }))
  },
  'close-tab': () => {
    html(`<p><label><input type="checkbox" id="agree"> 我已阅读</label> <a href="${zoo.base}/terms" target="_blank">服务条款</a></p><button type="button" id="go">确认开通</button>`)
    on('#go', 'click', () => post('/submit', { agreed: (document.getElementById('agree') as HTMLInputElement).checked }))
  },
  help: () => html('<h2>配送说明</h2><p>下单后 48 小时内发货，偏远地区除外。</p>'),
  terms: () => {
    html('<h2>服务条款</h2><p>本服务按月计费，可随时取消。</p>')
    // Says when the reader closes it, as reading-time analytics do.
    addEventListener('pagehide', () => navigator.sendBeacon(`${zoo.base}/terms/closed`, '{}'))
  },
  'hover-nav': () => html(`<ul class="nav"><li>首页</li><li>产品<ul><li><a href="${zoo.base}/personal">个人版</a></li><li><a href="${zoo.base}/enterprise">企业版</a></li></ul></li><li>价格</li></ul>`),
  'hover-card': () => {
    html(`<p>作者：<span id="author" style="text-decoration:underline">林小雨</span></p><div class="hovercard" id="card"><p>林小雨 · 128 篇文章</p><button type="button" id="follow">关注</button></div><p>正文……</p>`)
    const card = document.getElementById('card')!
    let hide = 0
    const show = () => (clearTimeout(hide), (card.style.display = 'block'))
    const later = () => (hide = window.setTimeout(() => (card.style.display = 'none'), 300))
    on('#author, #card', 'mouseenter', show)
    on('#author, #card', 'mouseleave', later)
    on('#follow', 'click', () => post('/follow', { author: '林小雨' }))
  },
}

pick(PAGES)()
