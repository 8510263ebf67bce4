/** Radix, Headless UI and react-select (English). */
import type { Page } from 'playwright-core'
import type { Task } from '../types'

const press = (p: Page, name: string | RegExp) => p.getByRole('button', { name, exact: true }).click()

export const RADIX: Task[] = [
  { id: 'radix-select', family: 'radix', entry: 'radix', lang: 'en', title: 'Fruit box', goal: 'Choose Banana as the fruit and save', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: 'Fruit', option: 'Banana' }, { type: 'click', find: 'Save' }],
    baseline: async (p) => { await p.getByRole('combobox', { name: 'Fruit' }).click(); await p.getByRole('option', { name: 'Banana' }).click(); await press(p, 'Save') },
    expect: { request: 'POST /submit', body: { fruit: 'banana' } } },
  { id: 'radix-menu', family: 'radix', entry: 'radix', lang: 'en', title: 'Invoices', goal: 'Export invoice #4821 as PDF', needs: ['settle', 'trusted-input'],
    plan: [{ type: 'click', find: 'Options' }, { type: 'click', find: 'Export as PDF' }],
    baseline: async (p) => { await press(p, 'Options'); await p.getByRole('menuitem', { name: 'Export as PDF' }).click() },
    expect: { request: 'POST /action', body: { action: 'Export as PDF' } } },
  { id: 'radix-dialog', family: 'radix', entry: 'radix', lang: 'en', title: 'Account', goal: 'Change my profile name to Ana Lima', needs: ['settle'],
    plan: [{ type: 'click', find: 'Edit profile' }, { type: 'type', find: 'Name', text: 'Ana Lima' }, { type: 'click', find: 'Save changes' }],
    baseline: async (p) => { await press(p, 'Edit profile'); await p.getByLabel('Name').fill('Ana Lima'); await press(p, 'Save changes') },
    expect: { request: 'POST /submit', body: { name: 'Ana Lima' } } },
  { id: 'radix-switch', family: 'radix', entry: 'radix', lang: 'en', title: 'Settings', goal: 'Turn airplane mode on (leave Wi-Fi as it is) and save', needs: ['names'],
    plan: [{ type: 'click', find: 'Airplane mode' }, { type: 'click', find: 'Save' }],
    baseline: async (p) => { await p.getByRole('switch', { name: 'Airplane mode' }).click(); await press(p, 'Save') },
    expect: { request: 'POST /submit', body: { airplane: true, wifi: true } } },
]

export const HEADLESS: Task[] = [
  { id: 'hl-listbox', family: 'headless-ui', entry: 'headless', lang: 'en', title: 'Issue #311', goal: 'Assign the issue to Devon Webb and save', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: ['Assignee', 'Choose someone'], option: 'Devon Webb' }, { type: 'click', find: 'Save' }],
    baseline: async (p) => { await p.getByRole('button', { name: /Assignee/ }).click(); await p.getByRole('option', { name: 'Devon Webb' }).click(); await press(p, 'Save') },
    expect: { request: 'POST /submit', body: { assignee: 'Devon Webb' } } },
  { id: 'hl-combobox', family: 'headless-ui', entry: 'headless', lang: 'en', title: 'Pull request', goal: 'Make Tom Cook the reviewer and save', needs: ['settle'],
    plan: [{ type: 'type', find: ['Reviewer', 'Type a name'], text: 'Tom' }, { type: 'click', find: 'Tom Cook' }, { type: 'click', find: 'Save' }],
    baseline: async (p) => { await p.getByLabel('Reviewer').fill('Tom'); await p.getByRole('option', { name: 'Tom Cook' }).click(); await press(p, 'Save') },
    expect: { request: 'POST /submit', body: { reviewer: 'Tom Cook' } } },
  { id: 'hl-switch', family: 'headless-ui', entry: 'headless', lang: 'en', title: 'Notifications', goal: 'Enable notifications (keep the weekly digest as it is) and save', needs: ['names'],
    plan: [{ type: 'click', find: 'Enable notifications' }, { type: 'click', find: 'Save' }],
    baseline: async (p) => { await p.getByRole('switch', { name: 'Enable notifications' }).click(); await press(p, 'Save') },
    expect: { request: 'POST /submit', body: { notifications: true, digest: true } } },
]

export const REACT_SELECT: Task[] = [
  { id: 'rs-single', family: 'react-select', entry: 'rselect', lang: 'en', title: 'Ice cream', goal: 'Pick the Strawberry flavour and submit', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: 'Flavour', option: 'Strawberry' }, { type: 'click', find: 'Submit' }],
    baseline: async (p) => { await p.getByLabel('Flavour').click(); await p.getByRole('option', { name: 'Strawberry' }).click(); await press(p, 'Submit') },
    expect: { request: 'POST /submit', body: { flavour: 'strawberry' } } },
  { id: 'rs-multi', family: 'react-select', entry: 'rselect', lang: 'en', title: 'Theme', goal: 'Choose the colours Blue and Red and submit', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: 'Colours', option: 'Blue' }, { type: 'select', find: 'Colours', option: 'Red' }, { type: 'click', find: 'Submit' }],
    baseline: async (p) => {
      await p.getByLabel('Colours').click(); await p.getByRole('option', { name: 'Blue' }).click()
      await p.getByLabel('Colours').click(); await p.getByRole('option', { name: 'Red' }).click(); await press(p, 'Submit')
    },
    expect: { request: 'POST /submit', body: { colours: ['blue', 'red'] } } },
  { id: 'rs-search', family: 'react-select', entry: 'rselect', lang: 'en', title: 'Shipping', goal: 'Set the country to Japan and continue', needs: ['settle'],
    plan: [{ type: 'type', find: 'Country', text: 'Jap' }, { type: 'press', keys: 'Enter' }, { type: 'click', find: 'Continue' }],
    baseline: async (p) => { await p.getByLabel('Country').fill('Jap'); await p.keyboard.press('Enter'); await press(p, 'Continue') },
    expect: { request: 'POST /submit', body: { country: 'japan' } } },
]
