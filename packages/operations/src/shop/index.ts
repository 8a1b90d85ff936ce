/** The public entry of shop/: products, orders, their payment and delivery. */
export { browseShop, deliveryOptions } from './browse-shop.js';
export { buy } from './buy.js';
export {
  expireOrders,
  moveOrder,
  type OperatorActor,
  ORDER_PAYMENT_GRACE_MS,
  ordersToPack,
  releaseStrandedVisitOrders,
  setShopOpenAs,
  shopStatus,
} from './operator.js';
export { getOrder, listOrders, ordersOfPerson } from './orders.js';
export { payOrder } from './pay-order.js';
export { quoteOrder } from './quote-order.js';
export { findShop, type Order, OrderSchema, toOrder } from './shop-model.js';
