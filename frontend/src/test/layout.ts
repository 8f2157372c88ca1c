/**
 * jsdom has no layout. The virtualised Turn list reads clientHeight (viewport) and offsetHeight
 * (row size), so component tests give every element a fixed size.
 */
export function fakeLayout({ viewport = 800, row = 100 } = {}) {
  const proto = HTMLElement.prototype;
  const saved = {
    clientHeight: Object.getOwnPropertyDescriptor(proto, "clientHeight"),
    clientWidth: Object.getOwnPropertyDescriptor(proto, "clientWidth"),
    offsetHeight: Object.getOwnPropertyDescriptor(proto, "offsetHeight"),
  };
  Object.defineProperty(proto, "clientHeight", { configurable: true, get: () => viewport });
  Object.defineProperty(proto, "clientWidth", { configurable: true, get: () => 800 });
  Object.defineProperty(proto, "offsetHeight", { configurable: true, get: () => row });
  return () => {
    for (const [key, descriptor] of Object.entries(saved)) {
      if (descriptor) Object.defineProperty(proto, key, descriptor);
    }
  };
}
