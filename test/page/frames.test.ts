import { expect, it } from 'vitest'
import { act, action, observe, openFixture, useFixtureBrowser, indexIn } from '../support/page-lib'

const env = useFixtureBrowser()

it('types into and clicks elements inside open shadow roots', async () => {
  const page = await openFixture(env.browser, env.fixtures, 'shadow.html')
  const snap = await observe(page)
  const user = indexIn(snap.elementTree, 'name=username')
  expect(await act(page, action('type', { target: { by: 'index', value: user }, params: { text: 'shadowy' } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
  expect(await act(page, action('click', { target: { by: 'index', value: indexIn(snap.elementTree, 'Log in with shadow') } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
  expect(await page.locator('#clicked').textContent()).toBe('shadow:shadowy')
  // Selector and text targets reach into shadow roots too.
  await act(page, action('type', { target: { by: 'selector', value: 'input[name=username]' }, params: { text: 'again' } }))
  await act(page, action('click', { target: { by: 'text', value: 'Log in with shadow' } }))
  expect(await page.locator('#clicked').textContent()).toBe('shadow:again')
  await page.close()
})

it('types into and clicks elements inside a same-origin iframe, and re-checks them for staleness', async () => {
  const page = await openFixture(env.browser, env.fixtures, 'frames.html')
  await page.frameLocator('#inner').locator('#apply').waitFor()
  const snap = await observe(page)
  const coupon = indexIn(snap.elementTree, 'Coupon code')
  expect(await act(page, action('type', { target: { by: 'index', value: coupon }, params: { text: 'SAVE10' } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
  expect(await act(page, action('click', { target: { by: 'index', value: indexIn(snap.elementTree, 'Apply coupon') } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
  const inner = page.frameLocator('#inner')
  expect(await inner.locator('#applied').textContent()).toBe('applied:SAVE10')
  // An element in the frame covered by something in the outer page is refused.
  await page.evaluate(() => {
    const cover = document.createElement('div')
    cover.id = 'outer-cover'
    const r = document.getElementById('inner')!.getBoundingClientRect()
    Object.assign(cover.style, { position: 'fixed', left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px`, background: 'white' })
    document.body.append(cover)
  })
  const covered = await act(page, action('click', { target: { by: 'index', value: indexIn(snap.elementTree, 'Apply coupon') } }))
  expect(covered.errors[0]).toMatchObject({ code: 'TARGET_NOT_INTERACTABLE', message: expect.stringContaining('div#outer-cover') })
  await page.close()
})
