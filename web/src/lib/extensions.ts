/** The extensions Nameport sells (spec section 9). */
export const extensions = ['.inf.nz', '.biz.ee', '.orgn.uk'] as const
export type Extension = (typeof extensions)[number]
