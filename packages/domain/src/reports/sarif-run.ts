import { arr, obj, str, uniq, uriToPath, type TJsonObject } from './report-values';
import type { TRuleFacts } from './sarif-result';

/**
 * What one SARIF run keeps in memory while its results stream past: the tool's rule metadata
 * (driver and extensions, by index and by id), URI base ids, and the small per-artifact and
 * logical-location tables results refer to by index. Artifact `contents` are never kept.
 */
export interface TSarifArtifact {
  uri?: string;
  uriBaseId?: string;
  hashes?: TJsonObject;
}

/** Secret scanners whose SARIF carries unmasked secrets in snippets. */
const SECRET_SCANNERS = /gitleaks|trufflehog|detect-secrets|ggshield|secretlint|nosey ?parker|kingfisher|betterleaks/i;

export class SarifRun {
  toolSeen = false;
  driver: TJsonObject = {};
  /** [driver, ...extensions]: toolComponent references index extensions, so extensions[i] is components[i + 1]. */
  components: TJsonObject[] = [];
  private ruleById = new Map<string, TJsonObject>();
  globalMessageStrings: TJsonObject = {};
  /**
   * Absolute file URIs, longest first, that absolute paths are made relative to: the
   * originalUriBaseIds, and the working directories of the run's invocations (where a tool that
   * writes absolute URIs ran: the checkout, on a CI runner whose path differs from run to run).
   */
  baseUris: string[] = [];
  private originalBaseUris: (string | undefined)[] = [];
  private workingDirectoryUris: string[] = [];
  artifacts: TSarifArtifact[] = [];
  logicalLocations: TJsonObject[] = [];
  taxonomies: TJsonObject[] = [];
  /**
   * What results derive from their rule alone (see sarif-result ruleFacts), once per rule rather
   * than once per result: a large report has a few rules and a hundred thousand results. Cleared
   * when what it depends on (rules, taxonomies) is replaced.
   */
  readonly ruleFacts = new Map<TJsonObject, TRuleFacts>();
  // Raw artifact URI → its path: results of one file repeat it in every location and flow step.
  private readonly pathByUri = new Map<string, string | undefined>();
  /** Results that arrived before `tool` (see SarifHandler). */
  pending: TJsonObject[] = [];
  resultCount = 0;
  findingCount = 0;
  /**
   * The driver is a secret scanner whose snippets hold the secret itself (gitleaks writes the
   * secret as region.snippet): such snippets are never kept, as secrets are never stored.
   */
  secretScanner = false;

  setTool(tool: unknown): void {
    const t = obj(tool) ?? {};
    this.toolSeen = true;
    this.driver = obj(t.driver) ?? {};
    const extensions = arr(t.extensions).map((e) => obj(e) ?? {});
    this.components = [this.driver, ...extensions];
    this.ruleById = new Map();
    // The driver's rules win a duplicate id over an extension's: results without a
    // toolComponent reference name driver rules.
    for (const component of this.components) {
      for (const r of arr(component.rules)) {
        const rule = obj(r);
        const id = str(rule?.id);
        if (rule && id !== undefined && !this.ruleById.has(id)) this.ruleById.set(id, rule);
      }
    }
    this.globalMessageStrings = obj(this.driver.globalMessageStrings) ?? {};
    this.secretScanner = SECRET_SCANNERS.test(str(this.driver.name) ?? '');
    this.ruleFacts.clear();
  }

  setTaxonomies(value: unknown): void {
    this.taxonomies = Array.isArray(value) ? value : [];
    this.ruleFacts.clear();
  }

  setOriginalUriBaseIds(value: unknown): void {
    const bases = obj(value) ?? {};
    const resolve = (name: string, depth: number): string | undefined => {
      const b = obj(bases[name]);
      const uri = str(b?.uri)?.trim();
      if (b === undefined || uri === undefined || depth > 8) return undefined;
      if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) return uri;
      const parent = str(b.uriBaseId);
      const parentUri = parent === undefined ? undefined : resolve(parent, depth + 1);
      return parentUri === undefined ? undefined : parentUri.replace(/\/?$/, '/') + uri;
    };
    this.originalBaseUris = Object.keys(bases).map((k) => resolve(k, 0));
    this.updateBaseUris();
  }

  /** An invocation's workingDirectory (an artifactLocation). */
  addWorkingDirectory(value: unknown): void {
    const uri = str(obj(value)?.uri)?.trim();
    if (uri === undefined) return;
    this.workingDirectoryUris.push(uri);
    this.updateBaseUris();
  }

  private updateBaseUris(): void {
    this.baseUris = uniq([...this.originalBaseUris, ...this.workingDirectoryUris].filter((u): u is string => u !== undefined && /^file:/i.test(u)))
      .map((u) => (u.endsWith('/') ? u : u + '/'))
      .sort((a, b) => b.length - a.length);
    this.pathByUri.clear();
  }

  setArtifactField(index: number, key: string, value: unknown): void {
    const a = (this.artifacts[index] ??= {});
    if (key === 'location') {
      const loc = obj(value);
      a.uri = str(loc?.uri);
      a.uriBaseId = str(loc?.uriBaseId);
    } else if (key === 'hashes') a.hashes = obj(value);
  }

  rule(result: TJsonObject): TJsonObject | undefined {
    const ref = obj(result.rule);
    const compRef = obj(ref?.toolComponent);
    let rules = arr(this.driver.rules);
    if (compRef !== undefined) {
      const ci = compRef.index;
      const name = str(compRef.name);
      const component =
        typeof ci === 'number' ? this.components[ci + 1] : name !== undefined ? this.components.find((c) => c.name === name) : undefined;
      if (component !== undefined) rules = arr(component.rules);
    }
    const index = typeof ref?.index === 'number' ? ref.index : typeof result.ruleIndex === 'number' ? result.ruleIndex : -1;
    const byIndex = index >= 0 ? obj(rules[index]) : undefined;
    if (byIndex !== undefined) return byIndex;
    let id = str(result.ruleId) ?? str(ref?.id);
    const scoped = compRef !== undefined ? rules.map(obj) : undefined;
    while (id !== undefined) {
      const wanted = id;
      const found = scoped?.find((r) => r?.id === wanted) ?? this.ruleById.get(wanted);
      if (found !== undefined) return found;
      // Hierarchical rule ids ("C2001/unused") fall back to their parent rule (SARIF 3.27.5).
      const slash = wanted.lastIndexOf('/');
      id = slash > 0 ? wanted.slice(0, slash) : undefined;
    }
    return undefined;
  }

  /** A repository-relative path where the report allows one. */
  artifactPath(artifactLocation: unknown): string | undefined {
    const loc = obj(artifactLocation);
    if (loc === undefined) return undefined;
    let uri = str(loc.uri);
    if (uri === undefined && typeof loc.index === 'number') uri = this.artifacts[loc.index]?.uri;
    if (uri === undefined) return undefined;
    const known = this.pathByUri.get(uri);
    if (known !== undefined || this.pathByUri.has(uri)) return known;
    const path = this.pathOf(uri);
    // Bounded: a report that names more files than this just computes the rest again.
    if (this.pathByUri.size >= 16_384) this.pathByUri.clear();
    this.pathByUri.set(uri, path);
    return path;
  }

  private pathOf(rawUri: string): string | undefined {
    let uri = rawUri.trim();
    if (/^file:/i.test(uri)) {
      const lower = uri.toLowerCase();
      const base = this.baseUris.find((b) => lower.startsWith(b.toLowerCase()));
      if (base !== undefined) uri = uri.slice(base.length);
    }
    const path = uriToPath(uri);
    return path === '' ? undefined : path;
  }

  artifactHashes(artifactLocation: unknown): { path?: string; hashes: TJsonObject } | undefined {
    const loc = obj(artifactLocation);
    if (loc === undefined || typeof loc.index !== 'number') return undefined;
    const hashes = this.artifacts[loc.index]?.hashes;
    return hashes === undefined ? undefined : { path: this.artifactPath(loc), hashes };
  }

  logicalName(logical: unknown): string | undefined {
    const l = obj(logical);
    if (l === undefined) return undefined;
    const direct = str(l.fullyQualifiedName) ?? str(l.name);
    if (direct !== undefined) return direct;
    const byIndex = typeof l.index === 'number' ? obj(this.logicalLocations[l.index]) : undefined;
    return str(byIndex?.fullyQualifiedName) ?? str(byIndex?.name);
  }

  taxonomyName(toolComponent: unknown): string | undefined {
    const tc = obj(toolComponent);
    if (tc === undefined) return undefined;
    const byName = str(tc.name);
    if (byName !== undefined) return byName;
    if (typeof tc.index === 'number') return str(obj(this.taxonomies[tc.index])?.name);
    const guid = str(tc.guid)?.toLowerCase();
    return guid === undefined ? undefined : str(this.taxonomies.map(obj).find((t) => str(t?.guid)?.toLowerCase() === guid)?.name);
  }
}
