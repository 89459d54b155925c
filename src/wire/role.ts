/** A role as the API shows it (api-surface.md "Roles"): a name and its operation ids. */
export interface RoleView {
  readonly name: string;
  readonly operations: readonly string[];
}
