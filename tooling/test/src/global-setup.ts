export { default } from '@nogpets/store/testing/global-setup';
