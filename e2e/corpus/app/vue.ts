import { createApp } from 'vue'
import { page } from './vue-base'

createApp(page()).mount('#app')
