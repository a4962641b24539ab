import { defineSection } from "../../core/section.ts";
import {
  addCartItem,
  createCart,
  getCart,
  listCartPaymentProviders,
  removeCartItem,
  setCartCustomer,
  setCartPaymentProvider,
  updateCartItem,
} from "./cart.ts";
import { applyCartVoucher, removeCartVoucher } from "./cart-voucher.ts";
import { checkoutCart, getOrder, getPayment, listOrderTickets } from "./checkout.ts";
import { getEvent, getSystemConfiguration, listEvents, listVenues } from "./discovery.ts";
import { retainedCheckoutRecords } from "./order-cap.ts";
import { shopControls } from "./payment-page.ts";
import { createSession } from "./sessions.ts";
import { initialShopState, type ShopState } from "./state.ts";

/** The shop section: catalogue, carts with seat holds, payments (card and hosted redirect), orders, tickets. */
const shop = defineSection<ShopState>({
  name: "shop",
  initialState: initialShopState,
  retained: (state) => (state.cartCount ?? 0) + retainedCheckoutRecords(state),
  handlers: {
    getSystemConfiguration,
    listVenues,
    listEvents,
    getEvent,
    createCart,
    getCart,
    addCartItem,
    updateCartItem,
    removeCartItem,
    setCartCustomer,
    applyCartVoucher,
    removeCartVoucher,
    listCartPaymentProviders,
    setCartPaymentProvider,
    checkoutCart,
    getPayment,
    getOrder,
    listOrderTickets,
    createSession,
  },
  controls: shopControls,
});

export default shop;
