import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { provideApi, resolveApi } from './api/index.ts';
import './styles/theme.css';

const app = createApp(App);
provideApi(app, resolveApi());
app.use(createPinia());
app.mount('#app');
