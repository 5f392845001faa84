import '../shared/zod.ts';
import { render } from 'preact';
import { PortClient } from '../port/portClient.ts';
import { ConnectPage } from './ConnectPage.tsx';

render(<ConnectPage client={new PortClient()} hash={location.hash} />, document.getElementById('app')!);
