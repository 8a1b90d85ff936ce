/** The public entry of directory/: the public directory of pet businesses and town slugs. */
export { DIRECTORY_CATEGORIES, DirectoryCategorySchema, findPetBusinesses } from './find-pet-businesses.js';
export { townSlug } from './town-slug.js';
