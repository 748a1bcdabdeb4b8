/**
 * The two DOM helpers the browser pages share (the playground and the target page): an element
 * by its id, and a new element with attributes and children.
 *
 * @module
 * @internal
 */

/** The page's element of this id (the pages' HTML holds every id their scripts ask for). */
export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** A new element with these attributes (undefined ones left out) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) if (value !== undefined) node.setAttribute(name, value);
  node.append(...children);
  return node;
}
