export { ConfigError } from '../keyserver/config-error.js';
