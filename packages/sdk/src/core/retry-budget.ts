/**
 * A token bucket shared by every call of one client, so a failing server is not stormed: each retry spends
 * tokens, each success refunds a fraction. When the bucket runs dry, failures are returned instead of retried.
 */

export interface RetryBudgetOptions {
  /** Bucket size (default 20). */
  capacity?: number;
  /** Cost of a retry after an error status or network error (default 1). */
  retryCost?: number;
  /** Cost of a retry after a timeout, which ties up the server longer (default 2). */
  timeoutCost?: number;
  /** Refund per successful response (default 0.2). */
  successRefund?: number;
}

export class RetryBudget {
  declare readonly capacity: number;
  declare readonly retryCost: number;
  declare readonly timeoutCost: number;
  declare readonly successRefund: number;
  #tokens: number;

  constructor(options: RetryBudgetOptions = {}) {
    this.capacity = options.capacity ?? 20;
    this.retryCost = options.retryCost ?? 1;
    this.timeoutCost = options.timeoutCost ?? 2;
    this.successRefund = options.successRefund ?? 0.2;
    this.#tokens = this.capacity;
  }

  /** Tokens currently available. */
  get available(): number {
    return this.#tokens;
  }

  /** Spends the cost of one retry; false (and nothing spent) when the budget cannot cover it. */
  tryAcquire(afterTimeout = false): boolean {
    const cost = afterTimeout ? this.timeoutCost : this.retryCost;
    if (this.#tokens < cost) return false;
    this.#tokens -= cost;
    return true;
  }

  /** Records a response the server handled (any non-retryable status). */
  recordSuccess(): void {
    if (this.#tokens < this.capacity)
      this.#tokens = Math.min(this.capacity, this.#tokens + this.successRefund);
  }
}
