/** The public entry of clients/: a business's clients and its notes about them. */
export { addClientNote, getClient, listClients } from './clients.js';
