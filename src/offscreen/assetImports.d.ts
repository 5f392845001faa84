// Vite's `?url` imports: the URL of the emitted asset (the pdf.js worker script).
declare module '*?url' {
  const url: string;
  export default url;
}
