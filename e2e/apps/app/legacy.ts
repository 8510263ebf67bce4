/**
 * jQuery-era pages, with the real plugins: handlers delegated from a container, icons drawn by CSS with no words,
 * a toolbar named only by classes, selectric, select2 and chosen selects, jQuery UI's datepicker, autocomplete and
 * sortable, and a SortableJS list. Each page keeps what the person did in its state (localStorage under the page's
 * key), which is what the verdict reads; its save buttons also send it, as such pages do.
 */
import $ from './jq'
import 'jquery-ui/dist/jquery-ui.js'
import 'jquery-ui/dist/themes/base/jquery-ui.css'
import 'chosen-js/chosen.jquery.js'
import 'chosen-js/chosen.css'
import selectric from 'selectric'
import 'selectric/public/selectric.css'
import select2 from 'select2'
import 'select2/dist/css/select2.css'
import Sortable from 'sortablejs'
import { apps } from './spec'

// The CommonJS builds of selectric and select2 export a function that installs the plugin on the jQuery given.
selectric(window, $)
select2(window, $)

/** Merges into the page's state: the verdict's source. */
function record(patch: Record<string, unknown>): void {
  const now = JSON.parse(localStorage.getItem(apps.storageKey) ?? '{}') as Record<string, unknown>
  localStorage.setItem(apps.storageKey, JSON.stringify({ ...now, ...patch }))
}
/** What a save button sends, as the page's backend would be told. */
const send = (path: string, values: unknown) => void fetch(apps.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(values) })
const status = (text: string) => $('#status').text(text)

/** A small SVG as a CSS url(): the icons these pages draw without a font and without a word. */
const svg = (body: string, size = 16) => `url("data:image/svg+xml,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' width='${size}' height='${size}' viewBox='0 0 16 16'>${body}</svg>`)}")`
const ICON = {
  dots: svg("<circle cx='3' cy='8' r='1.6'/><circle cx='8' cy='8' r='1.6'/><circle cx='13' cy='8' r='1.6'/>"),
  trash: svg("<path d='M3 4h10M6 4V2h4v2M4 4l1 10h6l1-10' fill='none' stroke='#555' stroke-width='1.4'/>"),
  starOff: svg("<path d='M8 1l2.2 4.6 5 .6-3.7 3.4 1 5L8 12.2 3.5 14.6l1-5L.8 6.2l5-.6z' fill='none' stroke='#e0a800'/>", 24),
  starOn: svg("<path d='M8 1l2.2 4.6 5 .6-3.7 3.4 1 5L8 12.2 3.5 14.6l1-5L.8 6.2l5-.6z' fill='#e0a800'/>", 24),
  heartOff: svg("<path d='M8 14S1.5 9.8 1.5 5.5A3.2 3.2 0 0 1 8 4a3.2 3.2 0 0 1 6.5 1.5C14.5 9.8 8 14 8 14z' fill='none' stroke='#c33'/>"),
  heartOn: svg("<path d='M8 14S1.5 9.8 1.5 5.5A3.2 3.2 0 0 1 8 4a3.2 3.2 0 0 1 6.5 1.5C14.5 9.8 8 14 8 14z' fill='#c33'/>"),
  bold: svg("<path d='M4 2h5a3 3 0 0 1 0 6H4zM4 8h6a3 3 0 0 1 0 6H4z' fill='none' stroke='#222' stroke-width='2'/>"),
  italic: svg("<path d='M7 2h6M3 14h6M10 2L6 14' stroke='#222' stroke-width='1.6'/>"),
  underline: svg("<path d='M4 2v6a4 4 0 0 0 8 0V2M3 15h10' fill='none' stroke='#222' stroke-width='1.6'/>"),
  strike: svg("<path d='M2 8h12M11 4a3 2 0 0 0-6 0c0 3 6 2 6 5a3 2 0 0 1-6 0' fill='none' stroke='#222' stroke-width='1.4'/>"),
  reply: svg("<path d='M6 3L1 8l5 5V10c4 0 7 1 9 4-1-5-4-8-9-8z' fill='#555'/>"),
  retweet: svg("<path d='M3 5h8v3l3-4-3-4v3H2v5h1zM13 11H5V8l-3 4 3 4v-3h9V8h-1z' fill='#555'/>"),
  remove: svg("<path d='M4 4l8 8M12 4l-8 8' stroke='#a00' stroke-width='2'/>", 12),
  save: svg("<path d='M2 2h10l2 2v10H2zM5 2v4h6V2M5 10h6' fill='none' stroke='#fff' stroke-width='1.4'/>", 14),
}

document.head.append(Object.assign(document.createElement('style'), { textContent: `
.inbox{border:1px solid #ddd;width:640px}.msg{display:flex;gap:12px;align-items:center;padding:10px 12px;border-bottom:1px solid #eee}.msg .from{width:150px;font-weight:600}.msg .subject{flex:1}.msg .when{color:#888}
.icon{display:inline-block;width:16px;height:16px;cursor:pointer;background-repeat:no-repeat;opacity:.7}.icon:hover{opacity:1}.icon.more{background-image:${ICON.dots}}.icon.delete{background-image:${ICON.trash}}
.menu{position:absolute;background:#fff;border:1px solid #ccc;box-shadow:0 2px 8px #0002;padding:4px 0}.menu a{display:block;padding:6px 16px;color:#222;text-decoration:none}.menu a:hover{background:#eef}
.rating .star{cursor:pointer;margin-right:4px}.rating .star::before{content:${ICON.starOff}}.rating .star.on::before{content:${ICON.starOn}}
.hotels li{padding:6px 0;list-style:none}.fav{display:inline-block;width:16px;height:16px;background:${ICON.heartOff} no-repeat;cursor:pointer;vertical-align:middle;margin-right:8px}.fav.on{background-image:${ICON.heartOn}}
.toolbar{border:1px solid #ccc;border-bottom:0;padding:6px;width:600px;display:flex;gap:4px}.toolbar button{width:28px;height:24px;border:0;background:transparent center no-repeat;cursor:pointer}.toolbar button:hover,.toolbar button.active{background-color:#e6e6e6}
.ql-bold{background-image:${ICON.bold}!important}.ql-italic{background-image:${ICON.italic}!important}.ql-underline{background-image:${ICON.underline}!important}.ql-strike{background-image:${ICON.strike}!important}
.editor{border:1px solid #ccc;width:588px;min-height:90px;padding:8px;outline:none}.attachments{padding:0;width:600px}.attachments li{list-style:none;padding:4px 0}
.glyphicon{display:inline-block;width:12px;height:12px;cursor:pointer;margin-left:8px}.glyphicon-remove{background:${ICON.remove} no-repeat}
.fa{display:inline-block;width:16px;height:16px;vertical-align:middle}.fa-trash{background:${ICON.trash} no-repeat;margin-left:16px}.fa-floppy-o{background:${ICON.save} no-repeat}
.btn{background:#337ab7;color:#fff;border:1px solid #2e6da4;border-radius:4px;padding:6px 12px;cursor:pointer}
.sortable{list-style:none;padding:0;width:360px}.sortable li{border:1px solid #ccc;background:#fafafa;margin:4px 0;padding:8px 12px;cursor:move}
.post{border-bottom:1px solid #eee;padding:8px 0;width:520px}.post .who{font-weight:600}.controls span{display:inline-block;width:16px;height:16px;margin-right:24px;background-repeat:no-repeat}
.controls .reply{background-image:${ICON.reply}}.controls .retweet{background-image:${ICON.retweet}}.controls .like{background-image:${ICON.heartOff}}.controls .on{opacity:.5}
.field{margin:12px 0}.field label{display:block;margin-bottom:4px;font-weight:600}` }))

const app = $('#app')

const PAGES: Record<string, () => void> = {
  inbox() {
    const messages = [
      ['Dana Whitfield', 'Invoice #2041 overdue', '9:41'],
      ['Team calendar', 'Team offsite next Thursday', '8:15'],
      ['Marco Ruiz', 'Slides for the board meeting', 'Yesterday'],
      ['IT Service Desk', 'Password expires in 3 days', 'Mon'],
    ]
    app.html(`<div class="inbox" id="inbox">${messages.map(([from, subject, when]) => `<div class="msg"><span class="from">${from}</span><span class="subject">${subject}</span><span class="when">${when}</span><span class="icon more"></span><span class="icon delete"></span></div>`).join('')}</div>
      <div class="menu" id="menu" style="display:none"><a href="#" data-act="read">Mark as read</a><a href="#" data-act="archive">Archive</a></div>`)
    const save = () => record({ messages: $('#inbox .subject').map((_, el) => $(el).text()).get() })
    let open: JQuery | null = null
    save()
    record({ archived: [] })
    // Every handler hangs on the list or the menu, none on the icons themselves.
    $('#inbox')
      .on('click', '.delete', function () {
        $(this).closest('.msg').remove()
        save()
      })
      .on('click', '.more', function (e) {
        e.stopPropagation()
        open = $(this).closest('.msg')
        const at = $(this).offset()!
        $('#menu').css({ top: at.top + 18, left: at.left - 80 }).show()
      })
    $('#menu').on('click', 'a', function (e) {
      e.preventDefault()
      if (open && $(this).data('act') === 'archive') {
        const now = JSON.parse(localStorage.getItem(apps.storageKey)!).archived as string[]
        record({ archived: [...now, open.find('.subject').text()] })
        open.remove()
        save()
      }
      if (open && $(this).data('act') === 'read') open.css('font-weight', 'normal')
      $('#menu').hide()
    })
    $(document).on('click', () => $('#menu').hide())
  },
  hotel() {
    app.html(`<p>How was your stay at <strong>Harbour View Hotel</strong>?</p>
      <div class="rating" id="rating">${[1, 2, 3, 4, 5].map((n) => `<span class="star" data-value="${n}"></span>`).join('')}</div>
      <div class="field"><textarea id="comment" rows="3" cols="60" placeholder="Tell other travellers about your stay"></textarea></div>
      <button type="button" class="btn" id="submit">Submit review</button>
      <h2>Similar hotels nearby</h2><ul class="hotels" id="hotels">${['Seaside Suites', 'Lakeside Inn', 'The Old Mill'].map((h) => `<li data-name="${h}"><i class="fav"></i>${h} · from €${h.length * 9} a night</li>`).join('')}</ul>`)
    let rating = 0
    const paint = (n: number) => $('#rating .star').each((i, el) => void $(el).toggleClass('on', i < n))
    $('#rating')
      .on('mouseenter', '.star', function () { paint(Number($(this).data('value'))) })
      .on('mouseleave', () => paint(rating))
      .on('click', '.star', function () { rating = Number($(this).data('value')); paint(rating) })
    $('#submit').on('click', () => {
      const review = { rating, comment: String($('#comment').val()) }
      record({ review })
      send('/review', review)
      status('Thanks for your review')
    })
    record({ favourites: [] })
    $('#hotels').on('click', '.fav', function () {
      $(this).toggleClass('on')
      record({ favourites: $('#hotels .fav.on').map((_, el) => $(el).closest('li').data('name')).get() })
    })
  },
  editor() {
    app.html(`<div class="toolbar" id="toolbar"><button type="button" class="ql-bold"></button><button type="button" class="ql-italic"></button><button type="button" class="ql-underline"></button><button type="button" class="ql-strike"></button></div>
      <div class="editor" id="body" contenteditable="true">Quarterly numbers are in</div>
      <ul class="attachments" id="attachments">${['budget.xlsx', 'notes.pdf'].map((f) => `<li data-file="${f}">${f}<span class="glyphicon glyphicon-remove"></span></li>`).join('')}</ul>
      <p><button type="button" class="btn" id="save"><i class="fa fa-floppy-o"></i> Save draft</button><a href="#" class="fa fa-trash" id="discard"></a></p>`)
    const attachments = () => $('#attachments li').map((_, el) => $(el).data('file')).get()
    $('#toolbar')
      .on('mousedown', 'button', (e) => e.preventDefault())
      .on('click', 'button', function () {
        document.execCommand(this.className.replace(/^ql-/, '').replace('strike', 'strikeThrough'))
        $('#body').trigger('focus')
      })
    $('#attachments').on('click', '.glyphicon-remove', function () { $(this).closest('li').remove() })
    $('#save').on('click', () => {
      const draft = { html: $('#body').html(), attachments: attachments() }
      record({ draft })
      send('/draft', draft)
      status('Draft saved')
    })
    $('#discard').on('click', (e) => {
      e.preventDefault()
      $('#body').html('')
      record({ discarded: true })
      status('Draft discarded')
    })
  },
  shipping() {
    app.html(`<div class="field"><label for="delivery">Delivery</label><select id="delivery"><option value="standard">Standard (3–5 days)</option><option value="express">Express (1–2 days)</option><option value="next-day">Next day</option></select></div>
      <button type="button" class="btn" id="continue">Continue to payment</button>`)
    $('#delivery').selectric()
    $('#continue').on('click', () => (record({ delivery: $('#delivery').val() }), send('/delivery', { delivery: $('#delivery').val() })))
  },
  country() {
    const countries = ['France', 'Germany', 'Italy', 'Netherlands', 'Poland', 'Portugal', 'Spain', 'Sweden']
    app.html(`<div class="field"><label for="country">Country</label><select id="country" style="width:300px"><option></option>${countries.map((c) => `<option>${c}</option>`).join('')}</select></div>
      <button type="button" class="btn" id="save">Save address</button>`)
    $('#country').select2({ placeholder: 'Select a country' })
    $('#save').on('click', () => (record({ country: $('#country').val() }), send('/address', { country: $('#country').val() })))
  },
  assignee() {
    const people = ['Alex Chen', 'Maria Lopez', 'Priya Raman', 'Tom Becker', 'Yuki Sato']
    app.html(`<p>Ticket #4821: printer on the 3rd floor jams</p><div class="field"><label for="assignee">Assignee</label><select id="assignee" data-placeholder="Choose an assignee" style="width:300px"><option></option>${people.map((p) => `<option>${p}</option>`).join('')}</select></div>
      <button type="button" class="btn" id="save">Save ticket</button>`)
    $('#assignee').chosen()
    $('#save').on('click', () => (record({ assignee: $('#assignee').val() }), send('/ticket', { assignee: $('#assignee').val() })))
  },
  booking() {
    app.html(`<div class="field"><label for="checkin">Check-in</label><input id="checkin" placeholder="mm/dd/yyyy" autocomplete="off"></div>
      <button type="button" class="btn" id="book">Book room</button>`)
    // The picker opens on December 2026 (a fixed month, so a day's number names one cell).
    $('#checkin').datepicker({ defaultDate: new Date(2026, 11, 1) })
    $('#book').on('click', () => (record({ checkin: $('#checkin').val() }), send('/booking', { checkin: $('#checkin').val() })))
  },
  destination() {
    const places = [
      { label: 'Lisbon, Portugal', code: 'LIS' },
      { label: 'Lisbon, Ohio', code: 'LSO' },
      { label: 'Lima, Peru', code: 'LIM' },
      { label: 'Linz, Austria', code: 'LNZ' },
      { label: 'Lyon, France', code: 'LYS' },
    ]
    app.html(`<div class="field"><label for="dest">Destination</label><input id="dest" size="30" placeholder="City or airport"><input type="hidden" id="dest-code"></div>
      <button type="button" class="btn" id="search">Search trips</button>`)
    // Only picking a suggestion fills the code the search needs; typed text alone leaves it empty.
    $('#dest').autocomplete({
      source: places.map((p) => ({ label: p.label, value: p.label, code: p.code })),
      select: (_e, ui) => void $("#dest-code").val(ui.item.code),
    }).on('input', () => $('#dest-code').val(''))
    $('#search').on('click', () => {
      const search = { destination: $('#dest').val(), code: $('#dest-code').val() }
      record({ search })
      send('/search', search)
    })
  },
  checklist() {
    const steps = ['Write release notes', 'Run the test suite', 'Tag the release', 'Deploy to production']
    app.html(`<p>Release checklist (drag to reorder)</p><ul class="sortable" id="steps">${steps.map((s) => `<li>${s}</li>`).join('')}</ul>`)
    const save = () => record({ order: $('#steps li').map((_, el) => $(el).text()).get() })
    save()
    $('#steps').sortable({ update: save })
  },
  feed() {
    // As the classic web-task pages draw a feed: each post's actions are bare spans, with no cursor, role or words,
    // their icons drawn by CSS, one handler delegated from the feed for them all.
    const posts = [['@mara', 'Ferry timetable changes from Monday'], ['@li_wei', '今天的日落真好看'], ['@tom', 'Cycle lanes approved at last']]
    app.html(`<div class="feed" id="feed">${posts.map(([who, text]) => `<div class="post" data-who="${who}"><span class="who">${who}</span> <span class="text">${text}</span>
      <div class="controls"><span class="reply"></span><span class="retweet"></span><span class="like"></span></div></div>`).join('')}</div>`)
    record({ retweeted: [], liked: [] })
    const toggle = (key: 'retweeted' | 'liked') => function (this: HTMLElement) {
      $(this).toggleClass('on')
      record({ [key]: $(`#feed .${key === 'liked' ? 'like' : 'retweet'}.on`).map((_, el) => $(el).closest('.post').data('who')).get() })
    }
    $('#feed').on('click', '.retweet', toggle('retweeted')).on('click', '.like', toggle('liked')).on('click', '.reply', () => status('Replying…'))
  },
  board() {
    const items = ['写测试', '代码评审', '设计评审', '上线发布']
    app.html(`<p>本周计划（拖动排序）</p><ul class="sortable" id="plan">${items.map((s) => `<li>${s}</li>`).join('')}</ul>`)
    const list = document.getElementById('plan')!
    const save = () => record({ order: [...list.children].map((li) => li.textContent) })
    save()
    Sortable.create(list, { animation: 0, onEnd: save })
  },
}

const draw = PAGES[apps.page]
if (!draw) throw new Error(`no page "${apps.page}" in the jQuery-era pages`)
draw()
