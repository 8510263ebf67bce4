import { defineEventHandler, readValidatedBody, setResponseStatus } from 'h3'
import { DemoMessageBody } from '#protocol'

/**
 * The demo page's contact form posts here as a real site's would, so the write barrier has a real request to hold
 * and the person a real card to answer. Checked, then forgotten: nothing is kept.
 */
export default defineEventHandler(async (event) => {
  await readValidatedBody(event, DemoMessageBody.parse)
  setResponseStatus(event, 204)
  return null
})
