/* eslint-disable */
/**
 * Generated from schemas/ by `npm run generate:types`; do not edit by hand.
 * A self-test (test/contract/types.spec.ts) fails when this file is out of date.
 */

// common/error-reply.json
/**
 * Error answer of a module to the system: `{success: false, errorMsg}`. The text is shown to the user.
 */
export interface ErrorReply {
  success: false;
  errorMsg: string;
  [k: string]: unknown;
}

// common/success-reply.json
/**
 * Plain success answer `{success: true}` (system to module on edit and call event; module to system on activity, delete, shipmentDelete, approve, cancel).
 */
export interface SuccessReply {
  success: true;
  [k: string]: unknown;
}

// delivery/package-item.json
/**
 * An item of a package (`PackageItem`), sent by the system in `calculate`, `save` and `shipmentSave`. Weights in grams; `cod` is the cash-on-delivery amount per unit.
 */
export interface DeliveryPackageItem {
  /**
   * Offer id in the system.
   */
  offerId?: string | number;
  /**
   * Offer id in the shop.
   */
  externalId?: string | number;
  /**
   * Offer id in the warehouse system.
   */
  xmlId?: string | number;
  name?: string;
  declaredValue?: number;
  /**
   * Cash-on-delivery amount per unit. Total cash on delivery = sum of cod x quantity over items, plus delivery.cod.
   */
  cod?: number;
  /**
   * VAT rate; the value `none` means no VAT. Other values are not listed by the document, so any non-empty string or a number is accepted.
   */
  vatRate?: string | number;
  quantity?: number;
  unit?: {
    code?: string;
    name?: string;
    sym?: string;
    [k: string]: unknown;
  };
  cost?: number;
  /**
   * Weight in grams (wire-profile.md section 2).
   */
  weight?: number;
  [k: string]: unknown;
}

// delivery/package.json
/**
 * A package of a delivery (`packages[]` of `calculate`, `save` and `shipmentSave`). Weight in grams, sizes in millimetres.
 */
export interface DeliveryPackage {
  packageId?: string | number;
  weight?: number;
  width?: number;
  length?: number;
  height?: number;
  items?: DeliveryPackageItem[];
  [k: string]: unknown;
}

// registration/delivery-data-field.json
/**
 * Extra field of a delivery module, an element of `deliveryDataFieldList` or `shipmentDataFieldList`.
 */
export type DeliveryDataField = {
  code: string;
  label: string;
  hint?: string;
  type: 'text' | 'integer' | 'checkbox' | 'choice' | 'autocomplete' | 'date';
  required?: boolean;
  affectsCost?: boolean;
  editable?: boolean;
  multiple?: boolean;
  choices?: {
    value: string | number;
    label: string;
    [k: string]: unknown;
  }[];
  autocompleteUrl?: string;
  [k: string]: unknown;
};
