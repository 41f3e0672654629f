// agal2spv/openfl (openfl.js): OpenFL's Program3D.upload through the package.
import type { Agal } from './agal2spv.js';

/** Replaces openfl.display3D.Program3D.prototype.upload (OpenFL 8.9.6's HTML5 target,
 * the global `openfl` of its dist) with one that uploads through `agal`, held to the
 * Context3D's profile; returns a function that puts OpenFL's own back. */
export function routeOpenFL(openfl: unknown, agal: Agal): () => void;
