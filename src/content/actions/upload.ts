/**
 * Putting files into a page (#19) as a person's choice would: an `<input type=file>` gets them in `input.files`
 * (set through a DataTransfer, the only way a script can fill that list) followed by the `input` and `change` events
 * a real file picker fires, so frameworks that listen for them (React's onChange included) see the files; an element
 * that is no file input is treated as a drop zone and gets the drag sequence a real drop gives (dragenter, dragover,
 * drop, carrying the files), unless it holds or labels a file input, which is then filled instead.
 */
import { describeElement, isDisabled, named } from '../describe.ts';
import { ActionError } from '../targets.ts';

export interface UploadFile {
  name: string;
  mime: string;
  /** base64 of the bytes. */
  data: string;
  lastModified: number;
}

export interface UploadResult {
  summary: string;
  mode: 'input' | 'drop';
  files: string[];
  /** `input.files` after the upload (input mode): what the page now holds. */
  landed?: string[];
  /** For drop: whether the page took the drop (called preventDefault on dragover/drop). */
  accepted?: boolean;
}

function decode(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function toFiles(files: UploadFile[]): File[] {
  return files.map((f) => new File([decode(f.data)], f.name, { type: f.mime, lastModified: f.lastModified }));
}

function isFileInput(el: Element | null | undefined): el is HTMLInputElement {
  return !!el && el.localName === 'input' && (el as HTMLInputElement).type === 'file';
}

/** The file input an element stands for: itself, the control of a label, or the only file input inside it. */
function fileInputOf(el: Element): HTMLInputElement | undefined {
  if (isFileInput(el)) return el;
  if (el.localName === 'label' && isFileInput((el as HTMLLabelElement).control))
    return (el as HTMLLabelElement).control as HTMLInputElement;
  const inside = el.querySelectorAll('input[type=file]');
  return inside.length === 1 ? (inside[0] as HTMLInputElement) : undefined;
}

const size = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
const shown = (fs: File[]) => fs.map((f) => `${f.name} (${size(f.size)})`);

export function uploadFiles(el: Element, files: UploadFile[], opts: { drop?: boolean } = {}): UploadResult {
  const list = toFiles(files);
  const input = opts.drop ? undefined : fileInputOf(el);
  if (input) {
    if (isDisabled(input)) throw new ActionError(`${named(input)} is disabled: the page does not take files now.`);
    if (list.length > 1 && !input.multiple)
      throw new ActionError(`${named(input)} takes one file (no "multiple" attribute); give one file.`);
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(f);
    input.files = dt.files;
    // A real picker fires input then change, both bubbling and composed (they cross shadow roots).
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    const landed = Array.from(input.files ?? [], (f) => f.name);
    return {
      mode: 'input',
      files: list.map((f) => f.name),
      landed,
      summary: `set ${shown(list).join(', ')} on ${describeElement(input)}${landed.length === list.length ? '' : `; but the input now holds ${landed.length} file(s): the page replaced or cleared them`}`,
    };
  }
  const dt = new DataTransfer();
  for (const f of list) dt.items.add(f);
  const r = el.getBoundingClientRect();
  const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
  const fire = (type: string) =>
    el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: dt, ...at }));
  fire('dragenter');
  const over = !fire('dragover');
  const dropped = !fire('drop');
  const accepted = over || dropped;
  return {
    mode: 'drop',
    files: list.map((f) => f.name),
    accepted,
    summary: `dropped ${shown(list).join(', ')} on ${describeElement(el)}${accepted ? '' : ' — but the page did not take the drop (no handler cancelled dragover/drop): this may be no drop zone'}`,
  };
}
