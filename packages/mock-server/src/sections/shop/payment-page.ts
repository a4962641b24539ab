/**
 * Mock-only routes: the hosted payment page of the `redirect` provider (no script, CSP-friendly). The credential-free
 * ticket and receipt documents are the assets section's (one PDF writer, `assets/pdf.ts`).
 */

import { pickText } from "../../core/culture.ts";
import { msg } from "../../core/messages.ts";
import type {
  ControlRoute,
  Culture,
  HandlerResult,
  LocalizedText,
  OperationContext,
} from "../../core/types.ts";
import { completeRedirectPayment, type PaymentResult } from "./checkout.ts";
import { load } from "./common.ts";

const TEXT: Record<string, LocalizedText> = {
  title: msg("shop.payment-page.test-payment"),
  intro: msg("shop.payment-page.this-is-the-entrada-mock-s"),
  amount: msg("assets.documents.amount"),
  pay: msg("shop.payment-page.pay"),
  fail: msg("shop.payment-page.fail-the-payment"),
  cancel: msg("shop.payment-page.cancel"),
  done: msg("shop.payment-page.this-payment-is-finished"),
  back: msg("shop.payment-page.back-to-the-shop"),
  missing: msg("shop.payment-page.this-payment-does-not-exist"),
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1f}
h1{font-size:1.5rem}.amount{font-size:1.25rem;font-weight:600}form{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1rem;border-radius:.4rem;border:1px solid #888;background:#fff;cursor:pointer}
button[value=success]{background:#1a7f37;border-color:#1a7f37;color:#fff}button:focus-visible{outline:3px solid #0b5fff;outline-offset:2px}`;

function resultFor(status: string): PaymentResult {
  return status === "succeeded" ? "success" : status === "cancelled" ? "cancel" : "failure";
}

function returnTo(returnUrl: string, paymentId: string, result: PaymentResult): string {
  const url = new URL(returnUrl);
  url.searchParams.set("entrada_payment", paymentId);
  url.searchParams.set("entrada_result", result);
  return url.toString();
}

function page(ctx: OperationContext, status: number, body: string, formTarget?: string): HandlerResult {
  const lang = ctx.culture.slice(0, 2);
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(pickText(TEXT.title as Record<Culture, string>, ctx.culture))}</title><link rel="stylesheet" href="${escapeHtml(sessionPath(ctx, "/__mock/pay.css"))}"></head><body>${body}</body></html>`;
  const formAction = formTarget ? ` ${new URL(formTarget).origin}` : "";
  return {
    status,
    contentType: "text/html; charset=utf-8",
    raw: html,
    headers: {
      "content-security-policy": `default-src 'none'; style-src 'self'; form-action 'self'${formAction}; base-uri 'none'; frame-ancestors 'none'`,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  };
}

function sessionPath(ctx: OperationContext, path: string): string {
  const base = ctx.baseUrl ? new URL(ctx.baseUrl).pathname.replace(/\/$/, "") : "";
  path = base + path;
  return ctx.mockSession && ctx.mockSession !== "default"
    ? `${path}?mockSession=${encodeURIComponent(ctx.mockSession)}`
    : path;
}

function text(ctx: OperationContext, key: string): string {
  return pickText(TEXT[key] as LocalizedText, ctx.culture);
}

function showPage(ctx: OperationContext): HandlerResult {
  const { state, now } = load(ctx);
  const payment = state.payments[ctx.params.paymentId ?? ""];
  if (payment?.providerId !== "redirect") {
    return page(
      ctx,
      404,
      `<h1>${escapeHtml(text(ctx, "title"))}</h1><p>${escapeHtml(text(ctx, "missing"))}</p>`,
    );
  }
  const amount = new Intl.NumberFormat(ctx.culture, { style: "currency", currency: payment.currency }).format(
    payment.amount / 100,
  );
  if (payment.status !== "pending" || payment.expiresAt <= now) {
    const link = payment.returnUrl
      ? returnTo(payment.returnUrl, payment.id, resultFor(payment.status))
      : null;
    return page(
      ctx,
      200,
      `<h1>${escapeHtml(text(ctx, "title"))}</h1><p>${escapeHtml(text(ctx, "done"))} <strong>${escapeHtml(payment.status)}</strong></p>${
        link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(text(ctx, "back"))}</a></p>` : ""
      }`,
    );
  }
  const action = sessionPath(ctx, `/__mock/pay/${payment.id}`);
  return page(
    ctx,
    200,
    `<main><h1>${escapeHtml(text(ctx, "title"))}</h1><p>${escapeHtml(text(ctx, "intro"))}</p>` +
      `<p>${escapeHtml(text(ctx, "amount"))}: <span class="amount">${escapeHtml(amount)}</span></p>` +
      `<p><small>${escapeHtml(payment.id)} · ${escapeHtml(payment.createdAt)}</small></p>` +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<button type="submit" name="result" value="success">${escapeHtml(text(ctx, "pay"))}</button>` +
      `<button type="submit" name="result" value="failure">${escapeHtml(text(ctx, "fail"))}</button>` +
      `<button type="submit" name="result" value="cancel">${escapeHtml(text(ctx, "cancel"))}</button>` +
      "</form></main>",
    payment.returnUrl ?? undefined,
  );
}

function submit(ctx: OperationContext): HandlerResult {
  const body = (ctx.body ?? {}) as { result?: unknown };
  const result = body.result;
  if (result !== "success" && result !== "failure" && result !== "cancel") {
    return ctx.problem("validation-error", "result must be success, failure or cancel.", {
      errors: [{ pointer: "/body/result", detail: "One of success, failure, cancel." }],
    });
  }
  const payment = completeRedirectPayment(ctx, ctx.params.paymentId ?? "", result);
  if (payment?.providerId !== "redirect")
    return ctx.problem("not-found", `No redirect payment ${ctx.params.paymentId}.`);
  const actual = resultFor(payment.status);
  if (!payment.returnUrl)
    return { status: 200, body: { id: payment.id, status: payment.status, orderId: payment.orderId } };
  return {
    status: 303,
    headers: { location: returnTo(payment.returnUrl, payment.id, actual) },
    raw: "",
    contentType: "text/plain",
  };
}

export const shopControls: ControlRoute[] = [
  {
    method: "GET",
    path: "/pay/{paymentId}",
    description: "Hosted payment page of the redirect provider (Pay, Fail, Cancel).",
    handler: showPage,
  },
  {
    method: "POST",
    path: "/pay/{paymentId}",
    description:
      "Completes a redirect payment (form or JSON {result: success|failure|cancel}); 303 back to returnUrl.",
    handler: submit,
  },
  {
    method: "GET",
    path: "/pay.css",
    description: "Stylesheet of the hosted payment page.",
    handler: () => ({
      status: 200,
      contentType: "text/css; charset=utf-8",
      raw: STYLE,
      headers: { "cache-control": "max-age=3600" },
    }),
  },
];
