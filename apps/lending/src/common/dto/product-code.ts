/** A loan product's code, as an application names it and a product declares it. */
export const PRODUCT_CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
