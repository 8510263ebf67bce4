/** jQuery as the page's global, as jQuery-era pages load it: plugins written for `window.jQuery` find it there. */
import $ from 'jquery'

Object.assign(window, { $, jQuery: $ })
export default $
