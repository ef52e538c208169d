// Renders the dashboard at once (loading), then again with the pipeline once
// the engine is loaded. `window.freshetDashboard` lets the browser test reach
// the pipeline and mount or unmount the app.
import { FreshetProvider } from 'freshet/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './App.jsx';
import { createPipeline } from './pipeline.js';

const element = document.getElementById('root');
let root = null;

function render(pipeline) {
  root ??= createRoot(element);
  root.render(
    <StrictMode>
      <FreshetProvider pipeline={pipeline}>
        <App />
      </FreshetProvider>
    </StrictMode>,
  );
}

render(null);
createPipeline().then((pipeline) => {
  render(pipeline);
  window.freshetDashboard = {
    pipeline,
    mount: () => render(pipeline),
    unmount() {
      root?.unmount();
      root = null;
    },
  };
}, (error) => {
  element.textContent = `The pipeline could not start: ${error.message}`;
});
